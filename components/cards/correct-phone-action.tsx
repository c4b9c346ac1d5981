'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Notice } from '@/components/ui/notice';
import { correctCardPhone } from '@/server/actions/cards';

/**
 * "Send to another number": support moves a card issued to a mistyped number to the right one. The card keeps
 * its balance and history; its link stops working, so the old number's messages open nothing.
 */
export function CorrectPhoneAction({ cardNumber, phone }: { cardNumber: string; phone: string }) {
  const t = useTranslations('Card.correctPhone');
  const errorText = useErrorText();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [number, setNumber] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [pending, start] = useTransition();

  const submit = () =>
    start(async () => {
      const result = await correctCardPhone({ card_number: cardNumber, phone_number: number });
      if (!result.ok) {
        setError(errorText(result));
        return;
      }
      setOpen(false);
      setNumber('');
      setError(null);
      setDone(true);
      router.refresh();
    });

  return (
    <div className="space-y-3">
      <Button
        variant="secondary"
        className="sm:w-auto"
        onClick={() => {
          setDone(false);
          setOpen(true);
        }}
        disabled={pending}
      >
        {t('open')}
      </Button>
      {done && (
        <Notice tone="success" testId="correct-phone-notice">
          {t('done')}
        </Notice>
      )}
      {open && (
        <ConfirmDialog
          open
          title={t('title', { lastFour: cardNumber.slice(-4) })}
          confirmLabel={t('confirm')}
          cancelLabel={t('cancel')}
          pending={pending}
          onConfirm={submit}
          onClose={() => setOpen(false)}
        >
          <p>{t('text', { phone })}</p>
          <label htmlFor="correct-phone-number" className="mt-3 block font-medium text-slate-900">
            {t('label')}
          </label>
          <input
            id="correct-phone-number"
            type="tel"
            autoComplete="off"
            value={number}
            aria-invalid={error !== null}
            aria-describedby="correct-phone-hint"
            onChange={(e) => setNumber(e.target.value)}
            className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-slate-900 focus-visible:outline-3 focus-visible:outline-emerald-700"
          />
          <p id="correct-phone-hint" className="mt-1 text-xs text-slate-600">
            {t('hint')}
          </p>
          {error && (
            <p role="alert" className="mt-2 text-sm font-medium text-red-800" data-testid="correct-phone-error">
              {error}
            </p>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}
