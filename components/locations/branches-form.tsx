'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import type { Location } from '@/lib/locations/locations';
import { createLocation } from '@/server/actions/locations';

/** The business's branches, and a field to name another (Settings). */
export function BranchesForm({ branches }: { branches: Location[] }) {
  const t = useTranslations('Locations');
  const errorText = useErrorText();
  const router = useRouter();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const result = await createLocation({ name });
    setBusy(false);
    if (!result.ok) return setError(result.fieldErrors?.name ?? errorText(result));
    setError(null);
    setName('');
    router.refresh();
  };

  return (
    <div className="space-y-3">
      {branches.length === 0 ? (
        <p className="text-sm text-slate-600">{t('none')}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg text-sm ring-1 ring-slate-200" data-testid="branch-list">
          {branches.map((b) => (
            <li key={b.id} className="flex justify-between px-3 py-2">
              <span className="font-medium text-slate-900">{b.name}</span>
              <span className="text-slate-600">{t('idLabel', { id: b.id })}</span>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-2" aria-label={t('add')}>
        <div className="min-w-0 flex-1">
          <TextField id="branch-name" label={t('name')} autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} error={error ?? undefined} />
        </div>
        <Button type="submit" block={false} disabled={busy || !name.trim()}>
          {t('add')}
        </Button>
      </form>
    </div>
  );
}
