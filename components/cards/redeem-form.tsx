'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { confirmRedemption, redeemCard } from '@/server/actions/redemptions';
import { SpendCodeForm } from '@/components/till/spend-code-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { newSubmissionId } from '@/components/forms/new-submission-id';
import { useErrorText } from '@/components/forms/use-error-text';
import { amountInWords } from '@/components/payouts/amount-in-words';
import { toMinorUnits } from '@/lib/amount-text';
import { redeemFormSchema, type RedeemForm } from '@/lib/actions/redemption.validation';
import type { Redemption } from '@/lib/redemptions/redeem-card';
import type { SpendCodeRequired } from '@/lib/spend-codes/request-spend-code';

type Outcome = { tone: 'success' | 'error'; text: string };

/** Spends the card at the counter: the amount leaves the card for the business account at once. */
export function RedeemFormView({ cardNumber, currency }: { cardNumber: string; currency: string }) {
  const t = useTranslations('CardActions');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const errorText = useErrorText();
  const money = (minor: number, cur = currency) => formatMoney(minor, cur, locale);
  const router = useRouter();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  /** A large redemption waiting for the user's yes, with the amount in words. */
  const [confirming, setConfirming] = useState<RedeemForm | null>(null);
  /** Over the business's threshold: the redemption waits for the cardholder's code. */
  const [waiting, setWaiting] = useState<SpendCodeRequired | null>(null);
  const fresh = () => ({ card_number: cardNumber, amount: '', merchant_reference: '', submission_id: newSubmissionId() });
  const { register, handleSubmit, setError, reset, formState } = useForm<RedeemForm>({ resolver: zodResolver(redeemFormSchema), defaultValues: fresh() });
  const { errors, isSubmitting } = formState;

  const submit = async (values: RedeemForm) => {
    setOutcome(null);
    const result = await redeemCard(values);
    // A large amount: the server has made every check of the redemption, and asks for a yes only of one that would go through.
    if (!result.ok && result.fieldErrors?.confirmed) return setConfirming(values);
    setConfirming(null);
    if (!result.ok) {
      // Too little on the card, or a fee above the amount, belong on the amount; a disabled card is said below the form.
      const amountMessage = result.fieldErrors?.amount ?? (result.field === 'amount' ? errorText(result) : undefined);
      if (amountMessage) setError('amount', { message: amountMessage }, { shouldFocus: true });
      else if (result.fieldErrors?.merchant_reference)
        setError('merchant_reference', { message: result.fieldErrors.merchant_reference }, { shouldFocus: true });
      else setOutcome({ tone: 'error', text: errorText(result) });
      return;
    }
    // A finished redemption (or one waiting for its code) gets a fresh key: the next one is a new sale, not a retry.
    reset(fresh());
    if ('confirmation_reference' in result.data) return setWaiting(result.data);
    done(result.data);
  };

  const done = (r: Redemption) => {
    const said = { amount: money(r.amount, r.currency), reference: r.reference, balance: money(r.available_amount, r.currency) };
    setOutcome({
      tone: 'success',
      text: r.fee > 0 ? t('redeemedWithFee', { ...said, net: money(r.net_amount, r.currency), fee: money(r.fee, r.currency) }) : t('redeemed', said),
    });
    router.refresh();
  };

  const onSubmit = handleSubmit(submit);

  const confirmCode = async (code: string): Promise<string | null> => {
    if (!waiting) return null;
    const result = await confirmRedemption({ confirmation_reference: waiting.confirmation_reference, code });
    if (!result.ok) return result.fieldErrors ? Object.values(result.fieldErrors).join(' ') : errorText(result);
    setWaiting(null);
    if (!('hold_reference' in result.data)) done(result.data);
    return null;
  };

  if (waiting) {
    return (
      <SpendCodeForm
        amountText={money(waiting.amount, waiting.currency)}
        expiresAt={waiting.expires_at}
        confirm={confirmCode}
        onCancel={() => setWaiting(null)}
      />
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('redeemLabel')}>
      <input type="hidden" {...register('card_number')} />
      <input type="hidden" {...register('submission_id')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="redeem-amount"
          label={t('redeemAmount', { currency })}
          inputMode="decimal"
          autoComplete="off"
          placeholder="25.00"
          error={errors.amount?.message}
          {...register('amount')}
        />
        <TextField
          id="redeem-reference"
          label={t('receipt')}
          autoComplete="off"
          error={errors.merchant_reference?.message}
          {...register('merchant_reference')}
        />
      </div>
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? t('working') : t('redeem')}
      </Button>
      <ConfirmDialog
        open={confirming !== null}
        title={t('redeemConfirm')}
        confirmLabel={confirming ? t('yesAmount', { amount: money(toMinorUnits(confirming.amount)) }) : t('yes')}
        pending={isSubmitting}
        onConfirm={() => confirming && void submit({ ...confirming, confirmed: true })}
        onClose={() => setConfirming(null)}
      >
        {confirming && (
          <p>
            <span className="block text-lg font-semibold tabular-nums text-slate-900">{money(toMinorUnits(confirming.amount))}</span>
            <span className="block text-slate-700">{amountInWords(toMinorUnits(confirming.amount), currency, locale)}</span>
          </p>
        )}
      </ConfirmDialog>
      {outcome && (
        <Notice tone={outcome.tone} testId={outcome.tone === 'success' ? 'redeem-outcome' : undefined}>
          {outcome.text}
        </Notice>
      )}
    </form>
  );
}
