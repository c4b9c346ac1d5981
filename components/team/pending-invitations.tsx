'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { LocalTime } from '@/components/ui/local-time';
import { revokeInvitation } from '@/server/actions/team';

export interface PendingInvitationItem {
  id: number;
  email: string;
  role: string;
  expiresAt: string;
}

/** Invitations not yet accepted: revoking one makes its link useless at once. */
export function PendingInvitations({ items }: { items: PendingInvitationItem[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  if (items.length === 0) return <p className="text-sm text-slate-600">No invitation is waiting to be accepted.</p>;
  return (
    <>
      <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200" data-testid="pending-invitations">
        {items.map((i) => (
          <li key={i.id} className="flex items-center justify-between gap-3 px-3 py-3" data-testid="pending-invitation">
            <div className="min-w-0 flex-1">
              <p className="break-all font-medium text-slate-900">{i.email}</p>
              <p className="text-xs text-slate-600">
                <span className="capitalize">{i.role}</span> · link works until <LocalTime iso={i.expiresAt} />
              </p>
            </div>
            <div className="shrink-0">
              <Button
                variant="danger"
                size="xs"
                block={false}
                className="shrink-0"
                disabled={pending}
                aria-label={`Revoke the invitation of ${i.email}`}
                onClick={() =>
                  startTransition(async () => {
                    const res = await revokeInvitation({ invitation_id: i.id });
                    setError(res.ok ? null : res.message);
                    router.refresh();
                  })
                }
              >
                Revoke
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {error}
        </p>
      )}
    </>
  );
}
