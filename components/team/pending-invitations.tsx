'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useErrorText } from '@/components/forms/use-error-text';
import { useState, useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { LocalTime } from '@/components/ui/local-time';
import { revokeInvitation } from '@/server/actions/team';

export interface PendingInvitationItem {
  id: number;
  email: string;
  role: string;
  location: string | null;
  expiresAt: string;
}

/** Invitations not yet accepted: revoking one makes its link useless at once. */
export function PendingInvitations({ items }: { items: PendingInvitationItem[] }) {
  const t = useTranslations('TeamForms');
  const shell = useTranslations('Shell');
  const errorText = useErrorText();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  if (items.length === 0) return <p className="text-sm text-slate-600">{t('pending.none')}</p>;
  return (
    <>
      <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200" data-testid="pending-invitations">
        {items.map((i) => (
          <li key={i.id} className="flex items-center justify-between gap-3 px-3 py-3" data-testid="pending-invitation">
            <div className="min-w-0 flex-1">
              <p className="break-all font-medium text-slate-900">{i.email}</p>
              <p className="text-xs text-slate-600">
                <span className="capitalize">{shell(`roles.${i.role}`)}</span>
                {i.location && ` · ${t('pending.at', { branch: i.location })}`} · {t('pending.until')} <LocalTime iso={i.expiresAt} />
              </p>
            </div>
            <div className="shrink-0">
              <Button
                variant="danger"
                size="xs"
                block={false}
                className="shrink-0"
                disabled={pending}
                aria-label={t('pending.revokeOf', { email: i.email })}
                onClick={() =>
                  startTransition(async () => {
                    const res = await revokeInvitation({ invitation_id: i.id });
                    setError(res.ok ? null : errorText(res));
                    router.refresh();
                  })
                }
              >
                {t('pending.revoke')}
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
