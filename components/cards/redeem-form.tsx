'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { redeemCard } from '@/server/actions/redemptions';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { newSubmissionId } from '@/components/forms/new-submission-id';
import { amountInWords } from '@/components/payouts/amount-in-words';
import { toMinorUnits } from '@/lib/amount-text';
import { redeemFormSchema, type RedeemForm } from '@/lib/actions/redemption.validation';

type Outcome = { tone: 'success' | 'error'; text: string };

/** Spends the card at the counter: the amount leaves the card for the business account at once. */
export function RedeemFormView({ cardNumber, currency }: { cardNumber: string; currency: string }) {
  const router = useRouter();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  /** A large redemption waiting for the user's yes, with the amount in words. */
  const [confirming, setConfirming] = useState<RedeemForm | null>(null);
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
      const amountMessage = result.fieldErrors?.amount ?? (result.field === 'amount' ? result.message : undefined);
      if (amountMessage) setError('amount', { message: amountMessage }, { shouldFocus: true });
      else if (result.fieldErrors?.merchant_reference)
        setError('merchant_reference', { message: result.fieldErrors.merchant_reference }, { shouldFocus: true });
      else setOutcome({ tone: 'error', text: result.message });
      return;
    }
    // A finished redemption gets a fresh key: the next one is a new sale, not a retry.
    reset(fresh());
    const r = result.data;
    const fee = r.fee > 0 ? ` (${formatMoney(r.net_amount, r.currency)} to your business after a ${formatMoney(r.fee, r.currency)} fee)` : '';
    setOutcome({
      tone: 'success',
      text: `Redeemed ${formatMoney(r.amount, r.currency)}${fee}, reference ${r.reference}. The card now holds ${formatMoney(r.available_amount, r.currency)}.`,
    });
    router.refresh();
  };

  const onSubmit = handleSubmit(submit);

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Redeem">
      <input type="hidden" {...register('card_number')} />
      <input type="hidden" {...register('submission_id')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="redeem-amount"
          label={`Amount to redeem (${currency})`}
          inputMode="decimal"
          autoComplete="off"
          placeholder="25.00"
          error={errors.amount?.message}
          {...register('amount')}
        />
        <TextField
          id="redeem-reference"
          label="Receipt or order number (optional)"
          autoComplete="off"
          error={errors.merchant_reference?.message}
          {...register('merchant_reference')}
        />
      </div>
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? 'Working…' : 'Redeem from card'}
      </Button>
      <ConfirmDialog
        open={confirming !== null}
        title="Redeem this much from the card?"
        confirmLabel={confirming ? `Yes, ${formatMoney(toMinorUnits(confirming.amount), currency)}` : 'Yes'}
        pending={isSubmitting}
        onConfirm={() => confirming && void submit({ ...confirming, confirmed: true })}
        onClose={() => setConfirming(null)}
      >
        {confirming && (
          <p>
            <span className="block text-lg font-semibold tabular-nums text-slate-900">{formatMoney(toMinorUnits(confirming.amount), currency)}</span>
            <span className="block text-slate-700">{amountInWords(toMinorUnits(confirming.amount), currency)}</span>
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
