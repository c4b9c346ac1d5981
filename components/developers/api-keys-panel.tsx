'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useErrorText } from '@/components/forms/use-error-text';
import { useState, useTransition } from 'react';
import { createApiKey, renameApiKey, revokeApiKey } from '@/server/actions/developers';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LocalTime } from '@/components/ui/local-time';
import { Notice } from '@/components/ui/notice';
import { StatusBadge } from '@/components/ui/status-badge';
import { API_KEY_SCOPES, type ApiKeyScope } from '@/lib/validation';
import type { ApiKeySummary } from '@/lib/keys/list-api-keys';
import { KeyScopeChips, KeyScopeFields } from './key-scopes';
import { SecretBox } from './secret-box';

/** The keys of the selected mode; a new key's secret lives only in this component's state, so a reload loses it for good. */
export function ApiKeysPanel({ keys, mode }: { keys: ApiKeySummary[]; mode: string }) {
  const t = useTranslations('DevelopersKeys');
  const shell = useTranslations('Shell');
  const errorText = useErrorText();
  const modeName = shell(`modes.${mode === 'live' ? 'live' : 'test'}`);
  const router = useRouter();
  const [created, setCreated] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeySummary | null>(null);
  const [renaming, setRenaming] = useState<ApiKeySummary | null>(null);
  const [nameError, setNameError] = useState<string | undefined>();
  const [scopesError, setScopesError] = useState<string | undefined>();
  // Controlled, so a refused form keeps what was typed and ticked.
  const [draftName, setDraftName] = useState('');
  const [draftScopes, setDraftScopes] = useState<ApiKeyScope[]>([...API_KEY_SCOPES]);
  const [pending, startTransition] = useTransition();

  const create = () =>
    startTransition(async () => {
      setMessage(null);
      setNameError(undefined);
      setScopesError(undefined);
      const result = await createApiKey({ name: draftName, scopes: draftScopes });
      if (!result.ok) {
        const fieldErrors = result.fieldErrors ?? (result.field ? { [result.field]: result.message } : undefined);
        if (!fieldErrors?.name && !fieldErrors?.scopes) return setMessage({ tone: 'error', text: errorText(result) });
        setNameError(fieldErrors.name);
        return setScopesError(fieldErrors.scopes);
      }
      setCreated(result.data.key);
      setDraftName('');
      setDraftScopes([...API_KEY_SCOPES]);
      router.refresh();
    });

  const startRenaming = (key: ApiKeySummary | null) => {
    setRenaming(key);
    setNameError(undefined);
  };

  const rename = (key: ApiKeySummary, form: FormData) =>
    startTransition(async () => {
      setNameError(undefined);
      const result = await renameApiKey({ key_id: key.id, name: String(form.get('name') ?? '') });
      if (!result.ok) return setNameError(result.fieldErrors?.name ?? errorText(result));
      setRenaming(null);
      setMessage({ tone: 'success', text: t('renamed', { prefix: key.prefix, name: result.data.name }) });
      router.refresh();
    });

  const revoke = (key: ApiKeySummary) =>
    startTransition(async () => {
      const result = await revokeApiKey({ key_id: key.id });
      setRevoking(null);
      setMessage(result.ok ? { tone: 'success', text: t('revoked', { prefix: key.prefix }) } : { tone: 'error', text: errorText(result) });
      router.refresh();
    });

  return (
    <div className="space-y-4">
      {created ? (
        <div className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="new-key">
          <p className="text-sm font-medium text-amber-950">{t('copyNow')}</p>
          <SecretBox label={t('newKeyLabel', { mode: modeName })} value={created} testId="new-key-value" />
          <Button variant="secondary" className="sm:w-auto" onClick={() => setCreated(null)}>
            {t('stored')}
          </Button>
        </div>
      ) : (
        <form
          onSubmit={(e) => {
            // Not a form action: React would reset the form after it, ticking every checkbox again.
            e.preventDefault();
            create();
          }}
          className="space-y-3"
        >
          <TextField
            id="new-key-name"
            name="name"
            label={t('nameLabel')}
            placeholder={t('namePlaceholder')}
            maxLength={60}
            value={draftName}
            onChange={(e) => setDraftName(e.target.value)}
            error={renaming ? undefined : nameError}
            hint={t('nameHint')}
          />
          <KeyScopeFields value={draftScopes} onChange={setDraftScopes} error={scopesError} />
          <Button type="submit" disabled={pending} className="sm:w-auto">
            {pending && !renaming ? t('creating') : t('create', { mode: modeName })}
          </Button>
        </form>
      )}
      {message && (
        <Notice tone={message.tone} testId="keys-notice">
          {message.text}
        </Notice>
      )}
      {keys.length === 0 ? (
        <p className="text-sm text-slate-600">{t('none', { mode: modeName })}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200" data-testid="api-keys">
          {keys.map((k) => (
            <li key={k.id} className="flex flex-wrap items-center justify-between gap-3 px-3 py-3" data-testid={`key-${k.prefix}`}>
              {renaming?.id === k.id ? (
                <form action={(form) => rename(k, form)} className="flex w-full flex-wrap items-end gap-2">
                  <div className="min-w-0 flex-1 basis-56">
                    <TextField
                      id={`rename-${k.id}`}
                      name="name"
                      label={t('newName', { prefix: k.prefix })}
                      defaultValue={k.name}
                      maxLength={60}
                      error={nameError}
                      autoFocus
                    />
                  </div>
                  <Button type="submit" disabled={pending} block={false}>
                    {t('saveName')}
                  </Button>
                  <Button type="button" variant="secondary" block={false} onClick={() => startRenaming(null)}>
                    {t('cancel')}
                  </Button>
                </form>
              ) : (
                <>
                  <div className="min-w-0 flex-1 basis-48">
                    {/* A 60-character name with no spaces must wrap, or it widens the page on a phone. */}
                    <p className="font-medium text-slate-900 [overflow-wrap:anywhere]" data-testid="key-name">
                      {k.name || t('unnamed')}
                    </p>
                    <p className="font-mono text-sm text-slate-700">
                      {k.prefix}…{k.lastFour ?? ''}
                    </p>
                    <KeyScopeChips scopes={k.scopes} />
                    <p className="text-xs text-slate-600">
                      {t('created')} <LocalTime iso={k.createdAt} />
                      {' · '}
                      <span data-testid="key-last-used">
                        {k.lastUsedAt ? (
                          <>
                            {t('lastUsed')} <LocalTime iso={k.lastUsedAt} />
                          </>
                        ) : (
                          t('neverUsed')
                        )}
                      </span>
                      {k.revokedAt && (
                        <>
                          {` · ${t('revokedAt')} `}
                          <LocalTime iso={k.revokedAt} />
                        </>
                      )}
                    </p>
                  </div>
                  <div className="flex items-center gap-2">
                    <StatusBadge status={k.active ? 'active' : 'revoked'} label={k.active ? t('active') : t('revokedBadge')} />
                    <Button variant="secondary" size="xs" block={false} onClick={() => startRenaming(k)} aria-label={t('renameKey', { prefix: k.prefix })}>
                      {t('rename')}
                    </Button>
                    {k.active && (
                      <Button variant="danger" size="xs" block={false} onClick={() => setRevoking(k)} aria-label={t('revokeKey', { prefix: k.prefix })}>
                        {t('revoke')}
                      </Button>
                    )}
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={!!revoking}
        title={t('confirmTitle')}
        confirmLabel={t('confirmRevoke')}
        pending={pending}
        onConfirm={() => revoking && revoke(revoking)}
        onClose={() => setRevoking(null)}
      >
        {t.rich('confirmText', {
          name: revoking?.name || t('unnamed'),
          key: () => <span className="font-mono">{revoking?.prefix}…</span>,
        })}
      </ConfirmDialog>
    </div>
  );
}
