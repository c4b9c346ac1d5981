'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { topUpCard } from '@/server/actions/cards';
import { RadioCard } from '@/components/forms/form-controls';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { formatMoney } from '@/components/ui/money';
import { CopyField } from '@/components/ui/copy-field';
import { Notice } from '@/components/ui/notice';
import { topUpFormSchema, type TopUpForm } from '@/lib/actions/cards.validation';
import { newSubmissionId } from '@/components/forms/new-submission-id';
import { amountInWords } from '@/components/payouts/amount-in-words';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toMinorUnits } from '@/lib/amount-text';

type Outcome = { kind: 'transfer'; text: string } | { kind: 'link'; url: string; text: string } | { kind: 'error'; text: string };

/** Top-up from the business balance (a ledger transfer) or a hosted payment link to hand to the customer. */
export function TopUpFormView({ cardNumber, currency, businessBalance }: { cardNumber: string; currency: string; businessBalance: number }) {
  const router = useRouter();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  /** A large top-up waiting for the user's yes, with the amount in words. */
  const [confirming, setConfirming] = useState<TopUpForm | null>(null);
  const { register, handleSubmit, setError, reset, watch, formState } = useForm<TopUpForm>({
    resolver: zodResolver(topUpFormSchema),
    defaultValues: { card_number: cardNumber, source: 'link', amount: '', submission_id: newSubmissionId() },
  });
  const { errors, isSubmitting } = formState;
  const source = watch('source');

  const submit = async (values: TopUpForm) => {
    setOutcome(null);
    const result = await topUpCard(values);
    // A large amount: the server has made every check of the top-up, and asks for a yes only of one that would go through.
    if (!result.ok && result.fieldErrors?.confirmed) return setConfirming(values);
    setConfirming(null);
    if (!result.ok) {
      if (result.fieldErrors?.amount) setError('amount', { message: result.fieldErrors.amount }, { shouldFocus: true });
      else setOutcome({ kind: 'error', text: result.message });
      return;
    }
    // A finished top-up gets a fresh key: the next one is a new request, not a retry.
    reset({ card_number: cardNumber, source: values.source, amount: '', submission_id: newSubmissionId() });
    const data = result.data;
    if (data.source === 'business') {
      setOutcome({
        kind: 'transfer',
        text: `${formatMoney(data.amount, currency)} is on its way from your business balance (reference ${data.reference}); the card is credited when the transfer settles.`,
      });
    } else {
      const fee = data.serviceFee > 0 ? ` plus a ${formatMoney(data.serviceFee, currency)} fee` : '';
      setOutcome({ kind: 'link', url: data.checkoutUrl, text: `Payment link for ${formatMoney(data.amount, currency)}${fee}. Send it to the customer:` });
    }
    router.refresh();
  };

  const onSubmit = handleSubmit(submit);

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Top up">
      <input type="hidden" {...register('card_number')} />
      <input type="hidden" {...register('submission_id')} />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Money comes from</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          <RadioCard value="link" title="Payment link" hint="The customer pays on a checkout page." {...register('source')} />
          <RadioCard value="business" title="Business balance" hint={<>Available: {formatMoney(businessBalance, currency)}</>} {...register('source')} />
        </div>
      </fieldset>
      <TextField
        id="top-up-amount"
        label={`Amount (${currency})`}
        inputMode="decimal"
        autoComplete="off"
        placeholder="25.00"
        error={errors.amount?.message}
        {...register('amount')}
      />
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? 'Working…' : source === 'business' ? 'Top up from business balance' : 'Create payment link'}
      </Button>
      <ConfirmDialog
        open={confirming !== null}
        title={source === 'business' ? 'Top up this much from the business balance?' : 'Create a payment link this large?'}
        confirmLabel={confirming ? `Yes, ${formatMoney(toMinorUnits(confirming.amount), currency)}` : 'Yes'}
        pending={isSubmitting}
        onConfirm={() => confirming && void submit({ ...confirming, confirmed: true })}
        onClose={() => setConfirming(null)}
      >
        {confirming && (
          <p>
            <span className="block text-lg font-semibold tabular-nums text-slate-900" data-testid="top-up-confirm-amount">
              {formatMoney(toMinorUnits(confirming.amount), currency)}
            </span>
            <span className="block text-slate-700">{amountInWords(toMinorUnits(confirming.amount), currency)}</span>
          </p>
        )}
      </ConfirmDialog>
      {outcome?.kind === 'error' && <Notice tone="error">{outcome.text}</Notice>}
      {outcome?.kind === 'transfer' && <Notice tone="success">{outcome.text}</Notice>}
      {outcome?.kind === 'link' && (
        <Notice tone="success" testId="payment-link">
          <p>{outcome.text}</p>
          <div className="mt-2">
            <CopyField key={outcome.url} id="checkout-url" label="Checkout link" value={outcome.url} hideLabel />
          </div>
          <a href={outcome.url} target="_blank" rel="noreferrer" className="mt-2 inline-block font-medium underline underline-offset-2">
            Open checkout page
          </a>
        </Notice>
      )}
    </form>
  );
}
