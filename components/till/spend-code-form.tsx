'use client';

import { useTranslations } from 'next-intl';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { LocalTime } from '@/components/ui/local-time';
import { Notice } from '@/components/ui/notice';

export interface SpendCodeFormProps {
  /** The spend as the cashier reads it: "ETB 2,500.00". */
  amountText: string;
  expiresAt: string;
  /** Sends the typed code: resolves to the refusal to show, or null when the spend is done. */
  confirm: (code: string) => Promise<string | null>;
  onCancel: () => void;
}

/**
 * A spend over the business's threshold waits for the code the cardholder's phone got: the cashier types it here
 * (focused at once, Enter sends, Escape goes back). A wrong code is said with the tries left and the field cleared.
 */
export function SpendCodeForm({ amountText, expiresAt, confirm, onCancel }: SpendCodeFormProps) {
  const t = useTranslations('SpendCode');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setError(t('sixDigits'));
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const refusal = await confirm(code);
    setBusy(false);
    if (refusal) {
      setError(refusal);
      setCode('');
      input.current?.focus();
    }
  };

  return (
    <form
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
      noValidate
      aria-labelledby="spend-code-title"
      data-testid="spend-code"
      className="space-y-3 rounded-xl border-2 border-amber-400 bg-amber-50 p-4"
    >
      <h2 id="spend-code-title" className="text-lg font-semibold text-slate-900">
        {t('title')}
      </h2>
      <p className="text-sm text-slate-800">{t('intro', { amount: amountText })}</p>
      <div>
        <label htmlFor="spend-code-input" className="block text-sm font-medium text-slate-800">
          {t('label')}
        </label>
        <input
          ref={input}
          id="spend-code-input"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
          aria-invalid={error !== null}
          aria-describedby="spend-code-hint"
          className="mt-1 block min-h-14 w-full rounded-lg border border-slate-400 bg-white px-3 text-center text-3xl tracking-[0.4em] tabular-nums"
        />
        <p id="spend-code-hint" className="mt-1 text-xs text-slate-700">
          {t('until')} <LocalTime iso={expiresAt} />. {t('tries')}
        </p>
      </div>
      {error && (
        <Notice tone="error" testId="spend-code-error">
          {error}
        </Notice>
      )}
      <div className="grid grid-cols-2 gap-3">
        <Button type="submit" className="min-h-12" disabled={busy}>
          {busy ? t('checking') : t('confirm')}
        </Button>
        <Button variant="secondary" className="min-h-12" disabled={busy} onClick={onCancel}>
          {t('cancel')}
        </Button>
      </div>
    </form>
  );
}
