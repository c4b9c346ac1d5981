'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { type FieldErrors as FormErrors, useForm, useWatch } from 'react-hook-form';
import { startPayment } from '@/server/actions/payments';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { groupedUnitsText } from '@/lib/money-text';
import { isLargeAmount } from '@/lib/actions/confirmation';
import { createPaymentFormSchema, type CreatePaymentFormInput, type CreatePaymentFormValues } from '@/lib/actions/payment.validation';
import type { CreatedPayment } from '@/lib/payments/create-payment';
import type { BankOrWallet } from '@/lib/providers/banks';
import { FormField } from '@/components/ui/field';
import { FormAlert, TextInput } from '@/components/forms/form-controls';
import { newSubmissionId } from '@/components/forms/new-submission-id';
import { failurePlacer } from '@/components/forms/place-failure';
import { failureOf, unwrap } from '@/components/payouts/action-result';
import { amountInWords } from '@/components/payouts/amount-in-words';
import { PaymentCreated } from './payment-created';
import { FIELD_ORDER, usePaymentFailureText } from './payment-form-messages';
import { useFieldText } from '@/components/forms/field-text';
import { DirectChargeFields, PaymentTypeChoice } from './payment-type-fields';
import { usePaymentCard } from './use-payment-card';

export function NewPaymentForm({ defaultCard, wallets }: { defaultCard: string; wallets: readonly BankOrWallet[] }) {
  const t = useTranslations('NewPayment');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const { fieldMessage, cardHint, errorText } = usePaymentFailureText();
  const fieldText = useFieldText();
  const [alert, setAlert] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedPayment | null>(null);
  const [confirming, setConfirming] = useState<CreatePaymentFormValues | null>(null);
  const form = useForm<CreatePaymentFormInput, unknown, CreatePaymentFormValues>({
    resolver: zodResolver(createPaymentFormSchema),
    shouldFocusError: false,
    defaultValues: { submission_id: '', type: 'hosted', card_number: defaultCard, amount: '', merchant_reference: '', phone_number: '', payment_method: '' },
  });
  const { register, handleSubmit, setValue, setError, setFocus, getValues, formState } = form;
  const errors = formState.errors;
  const [type, typedCard, paymentMethod] = useWatch({ control: form.control, name: ['type', 'card_number', 'payment_method'] });
  const clearWallet = useCallback(() => setValue('payment_method', ''), [setValue]);
  const { card, currency, walletChoices } = usePaymentCard(typedCard, paymentMethod, wallets, clearWallet);

  // One id per form, made in the browser: every submission of this form carries it, so the server starts one payment.
  useEffect(() => setValue('submission_id', newSubmissionId()), [setValue]);

  const { focusFirst, place } = failurePlacer({ order: FIELD_ORDER, setError, setFocus, setAlert, fieldMessage, alertText: errorText, fieldText });

  const start = useMutation({
    // confirmed: the user said yes in the dialog; the server asks for it on large amounts as the form does.
    mutationFn: (confirmed: boolean) => {
      const values = getValues();
      return unwrap(startPayment({ ...values, merchant_reference: values.merchant_reference || undefined, confirmed }));
    },
    onSuccess: (data) => {
      setConfirming(null);
      setCreated(data);
    },
    onError: (err) => {
      setConfirming(null);
      place(failureOf(err));
    },
  });

  const onValid = (v: CreatePaymentFormValues) => {
    if (start.isPending) return;
    setAlert(null);
    // A large amount is sent only once the user has seen it in figures and in words.
    if (isLargeAmount(v.amount)) return setConfirming(v);
    start.mutate(false);
  };
  const onInvalid = (errs: FormErrors<CreatePaymentFormInput>) => focusFirst(errs);

  if (created) return <PaymentCreated created={created} />;

  const busy = start.isPending;
  const hosted = type === 'hosted';
  return (
    <form onSubmit={handleSubmit(onValid, onInvalid)} noValidate className="max-w-xl space-y-5 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <PaymentTypeChoice register={register} />
      <FormField id="card_number" label={t('cardNumber')} error={errors.card_number?.message} hint={cardHint(card)}>
        <TextInput id="card_number" inputMode="numeric" autoComplete="off" invalid={!!errors.card_number} {...register('card_number')} />
      </FormField>
      <FormField id="amount" label={t('amount')} error={errors.amount?.message} hint={t('amountHint')}>
        <TextInput id="amount" inputMode="decimal" autoComplete="off" invalid={!!errors.amount} {...register('amount')} />
      </FormField>
      <FormField id="merchant_reference" label={t('reference')} error={errors.merchant_reference?.message} hint={t('referenceHint')}>
        <TextInput id="merchant_reference" autoComplete="off" invalid={!!errors.merchant_reference} {...register('merchant_reference')} />
      </FormField>
      {!hosted && <DirectChargeFields register={register} errors={errors} currency={currency} walletChoices={walletChoices} paymentMethod={paymentMethod} />}
      {alert && <FormAlert>{alert}</FormAlert>}
      <Button type="submit" disabled={busy}>
        {busy ? t('starting') : hosted ? t('createLink') : t('chargeWallet')}
      </Button>
      <ConfirmDialog
        open={confirming !== null}
        title={hosted ? t('confirm.linkTitle') : t('confirm.chargeTitle')}
        confirmLabel={hosted ? t('confirm.link') : t('confirm.charge')}
        pending={start.isPending}
        onConfirm={() => start.mutate(true)}
        onClose={() => {
          if (!start.isPending) setConfirming(null);
        }}
      >
        {confirming && (
          <div className="space-y-2">
            <p>
              {t.rich('confirm.receives', {
                amount: groupedUnitsText(confirming.amount),
                figure: (chunks) => (
                  <span className="font-semibold tabular-nums text-slate-900" data-testid="confirm-amount">
                    {chunks}
                  </span>
                ),
              })}
            </p>
            <p className="font-medium text-slate-900" data-testid="confirm-words">
              {amountInWords(confirming.amount, undefined, locale)}
            </p>
            <p>{t('confirm.check')}</p>
          </div>
        )}
      </ConfirmDialog>
    </form>
  );
}
