'use client';

import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { setApprovalThreshold } from '@/server/actions/approvals';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { groupedUnitsText } from '@/lib/money-text';

/** One currency's approval threshold: an amount in currency units, or empty for none. */
export function ThresholdForm({ currency, amount }: { currency: string; amount: number | null }) {
  const router = useRouter();
  const t = useTranslations('Approvals');
  const locale = useLocale();
  const errorText = useErrorText();
  const [value, setValue] = useState(amount === null ? '' : groupedUnitsText(amount));
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `threshold-${currency}`;

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const result = await setApprovalThreshold({ currency, amount: value });
    setBusy(false);
    // English keeps the field's own sentence; another language says the error's code in its words.
    if (!result.ok) return setMessage({ error: true, text: locale === 'en' ? (result.fieldErrors?.amount ?? result.message) : errorText(result) });
    setMessage({
      error: false,
      text: result.data.amount === null ? t('noThresholdSaved') : t('thresholdSaved', { currency, amount: groupedUnitsText(result.data.amount) }),
    });
    router.refresh();
  };

  return (
    <div>
      <form onSubmit={save} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-end" aria-label={t('thresholdOf', { currency })}>
        <label htmlFor={id} className="block flex-1 text-sm">
          <span className="font-medium text-slate-800">{currency}</span>
          <input
            id={id}
            value={value}
            inputMode="decimal"
            placeholder={t('noThreshold')}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={message?.error || undefined}
            aria-describedby={`${id}-message`}
            className="mt-1 block min-h-11 w-full rounded-lg border border-slate-300 px-3 py-2 tabular-nums"
          />
        </label>
        <Button type="submit" variant="secondary" className="sm:w-auto" disabled={busy}>
          {busy ? t('saving') : t('save', { currency })}
        </Button>
      </form>
      <p id={`${id}-message`} role={message?.error ? 'alert' : 'status'} className={`mt-1 text-sm ${message?.error ? 'text-red-700' : 'text-slate-700'}`}>
        {message?.text}
      </p>
    </div>
  );
}
