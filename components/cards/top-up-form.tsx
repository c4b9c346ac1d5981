'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
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
import { useErrorText } from '@/components/forms/use-error-text';
import { amountInWords } from '@/components/payouts/amount-in-words';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toMinorUnits } from '@/lib/amount-text';

type Outcome = { kind: 'transfer'; text: string } | { kind: 'link'; url: string; text: string } | { kind: 'error'; text: string };

/** Top-up from the business balance (a ledger transfer) or a hosted payment link to hand to the customer. */
export function TopUpFormView({ cardNumber, currency, businessBalance }: { cardNumber: string; currency: string; businessBalance: number }) {
  const t = useTranslations('CardActions');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const errorText = useErrorText();
  const money = (minor: number) => formatMoney(minor, currency, locale);
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
      else setOutcome({ kind: 'error', text: errorText(result) });
      return;
    }
    // A finished top-up gets a fresh key: the next one is a new request, not a retry.
    reset({ card_number: cardNumber, source: values.source, amount: '', submission_id: newSubmissionId() });
    const data = result.data;
    if (data.source === 'business') {
      setOutcome({
        kind: 'transfer',
        text: t('topUpTransfer', { amount: money(data.amount), reference: data.reference }),
      });
    } else {
      const text =
        data.serviceFee > 0
          ? t('topUpLinkWithFee', { amount: money(data.amount), fee: money(data.serviceFee) })
          : t('topUpLink', { amount: money(data.amount) });
      setOutcome({ kind: 'link', url: data.checkoutUrl, text });
    }
    router.refresh();
  };

  const onSubmit = handleSubmit(submit);

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('topUpLabel')}>
      <input type="hidden" {...register('card_number')} />
      <input type="hidden" {...register('submission_id')} />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t('comesFrom')}</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          <RadioCard value="link" title={t('linkSource')} hint={t('linkSourceHint')} {...register('source')} />
          <RadioCard value="business" title={t('businessSource')} hint={t('available', { amount: money(businessBalance) })} {...register('source')} />
        </div>
      </fieldset>
      <TextField
        id="top-up-amount"
        label={t('topUpAmount', { currency })}
        inputMode="decimal"
        autoComplete="off"
        placeholder="25.00"
        error={errors.amount?.message}
        {...register('amount')}
      />
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? t('working') : source === 'business' ? t('topUpFromBusiness') : t('createLink')}
      </Button>
      <ConfirmDialog
        open={confirming !== null}
        title={source === 'business' ? t('topUpConfirmBusiness') : t('topUpConfirmLink')}
        confirmLabel={confirming ? t('yesAmount', { amount: money(toMinorUnits(confirming.amount)) }) : t('yes')}
        pending={isSubmitting}
        onConfirm={() => confirming && void submit({ ...confirming, confirmed: true })}
        onClose={() => setConfirming(null)}
      >
        {confirming && (
          <p>
            <span className="block text-lg font-semibold tabular-nums text-slate-900" data-testid="top-up-confirm-amount">
              {money(toMinorUnits(confirming.amount))}
            </span>
            <span className="block text-slate-700">{amountInWords(toMinorUnits(confirming.amount), currency, locale)}</span>
          </p>
        )}
      </ConfirmDialog>
      {outcome?.kind === 'error' && <Notice tone="error">{outcome.text}</Notice>}
      {outcome?.kind === 'transfer' && <Notice tone="success">{outcome.text}</Notice>}
      {outcome?.kind === 'link' && (
        <Notice tone="success" testId="payment-link">
          <p>{outcome.text}</p>
          <div className="mt-2">
            <CopyField key={outcome.url} id="checkout-url" label={t('checkoutLink')} value={outcome.url} hideLabel />
          </div>
          <a href={outcome.url} target="_blank" rel="noreferrer" className="mt-2 inline-block font-medium underline underline-offset-2">
            {t('openCheckout')}
          </a>
        </Notice>
      )}
    </form>
  );
}
