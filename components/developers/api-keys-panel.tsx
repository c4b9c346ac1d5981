'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { createApiKey, revokeApiKey } from '@/server/actions/developers';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LocalTime } from '@/components/ui/local-time';
import { Notice } from '@/components/ui/notice';
import { StatusBadge } from '@/components/ui/status-badge';
import type { ApiKeySummary } from '@/lib/keys/list-api-keys';
import { SecretBox } from './secret-box';

/** The keys of the selected mode; a new key's secret lives only in this component's state, so a reload loses it for good. */
export function ApiKeysPanel({ keys, mode }: { keys: ApiKeySummary[]; mode: string }) {
  const router = useRouter();
  const [created, setCreated] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeySummary | null>(null);
  const [pending, startTransition] = useTransition();

  const create = () =>
    startTransition(async () => {
      setMessage(null);
      const result = await createApiKey({});
      if (!result.ok) return setMessage({ tone: 'error', text: result.message });
      setCreated(result.data.key);
      router.refresh();
    });

  const revoke = (key: ApiKeySummary) =>
    startTransition(async () => {
      const result = await revokeApiKey({ key_id: key.id });
      setRevoking(null);
      setMessage(result.ok ? { tone: 'success', text: `Key ${key.prefix}… is revoked; the API now refuses it.` } : { tone: 'error', text: result.message });
      router.refresh();
    });

  return (
    <div className="space-y-4">
      {created ? (
        <div className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="new-key">
          <p className="text-sm font-medium text-amber-950">Copy this key now. It is shown once and never again; we keep only its hash.</p>
          <SecretBox label={`New ${mode} API key`} value={created} testId="new-key-value" />
          <Button variant="secondary" className="sm:w-auto" onClick={() => setCreated(null)}>
            I have stored it safely
          </Button>
        </div>
      ) : (
        <Button onClick={create} disabled={pending} className="sm:w-auto">
          {pending ? 'Creating…' : `Create ${mode} API key`}
        </Button>
      )}
      {message && (
        <Notice tone={message.tone} testId="keys-notice">
          {message.text}
        </Notice>
      )}
      {keys.length === 0 ? (
        <p className="text-sm text-slate-600">No {mode} keys yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200" data-testid="api-keys">
          {keys.map((k) => (
            <li key={k.id} className="flex flex-wrap items-center justify-between gap-3 px-3 py-3" data-testid={`key-${k.prefix}`}>
              <div className="min-w-0">
                <p className="font-mono text-sm font-medium text-slate-900">{k.prefix}…</p>
                <p className="text-xs text-slate-600">
                  Created <LocalTime iso={k.createdAt} />
                  {k.revokedAt && (
                    <>
                      {' · revoked '}
                      <LocalTime iso={k.revokedAt} />
                    </>
                  )}
                </p>
              </div>
              <div className="flex items-center gap-2">
                <StatusBadge status={k.active ? 'active' : 'revoked'} />
                {k.active && (
                  <Button variant="danger" className="min-h-9 w-auto px-3 py-1 text-sm" onClick={() => setRevoking(k)} aria-label={`Revoke key ${k.prefix}`}>
                    Revoke
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={!!revoking}
        title="Revoke this API key?"
        confirmLabel="Revoke key"
        pending={pending}
        onConfirm={() => revoking && revoke(revoking)}
        onClose={() => setRevoking(null)}
      >
        Every request with <span className="font-mono">{revoking?.prefix}…</span> will be refused with 403 Forbidden from now on. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}
