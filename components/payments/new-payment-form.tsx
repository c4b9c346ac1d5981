'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { type FieldErrors as FormErrors, useForm, useWatch } from 'react-hook-form';
import { lookupPaymentCard, startPayment } from '@/server/actions/payments';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatMoney } from '@/components/ui/money';
import { unitsText } from '@/lib/actions/amount.validation';
import { isLargeAmount } from '@/lib/actions/confirmation';
import type { ActionFailure } from '@/lib/actions/define-action';
import { createPaymentFormSchema, type CreatePaymentFormInput, type CreatePaymentFormValues } from '@/lib/actions/payment.validation';
import { normalizeCardNumber } from '@/lib/actions/payout.validation';
import type { CreatedPayment } from '@/lib/payments/create-payment';
import type { BankOrWallet } from '@/lib/rails/banks';
import { FormField } from '@/components/ui/field';
import { SelectInput, TextInput } from '@/components/forms/form-controls';
import { newSubmissionId } from '@/components/forms/new-submission-id';
import { failureOf, firstInvalid, unwrap } from '@/components/payouts/action-result';
import { amountInWords } from '@/components/payouts/amount-in-words';

/** The form's fields in the order they appear: the first with an error gets the focus. */
const FIELD_ORDER = ['type', 'card_number', 'amount', 'merchant_reference', 'payment_method', 'phone_number'] as const;
type FormFieldName = (typeof FIELD_ORDER)[number];

/** A core refusal in the form's words, chosen by its code; the core's own sentence otherwise. */
function fieldMessage(failure: ActionFailure): string {
  switch (failure.code) {
    case 'card_not_found':
      return 'No card of your business has this number in this mode.';
    case 'card_disabled':
      return 'This card is disabled; enable it before taking a payment for it.';
    case 'duplicate_merchant_reference':
      return 'Another payment already has this order reference; use a new one or leave it empty.';
    default:
      return failure.message;
  }
}

export function NewPaymentForm({ defaultCard, wallets }: { defaultCard: string; wallets: readonly BankOrWallet[] }) {
  const [alert, setAlert] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedPayment | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState<CreatePaymentFormValues | null>(null);
  const form = useForm<CreatePaymentFormInput, unknown, CreatePaymentFormValues>({
    resolver: zodResolver(createPaymentFormSchema),
    shouldFocusError: false,
    defaultValues: { submission_id: '', type: 'hosted', card_number: defaultCard, amount: '', merchant_reference: '', phone_number: '', payment_method: '' },
  });
  const { register, handleSubmit, setValue, setError, setFocus, getValues, formState } = form;
  const errors = formState.errors;
  const [type, typedCard, paymentMethod] = useWatch({ control: form.control, name: ['type', 'card_number', 'payment_method'] });

  // The card's currency chooses the wallets offered: looked up once the number is a card number.
  const cardNumber = normalizeCardNumber(typedCard ?? '');
  const card = useQuery({
    queryKey: ['payment-card', cardNumber ?? null] as const,
    queryFn: () => unwrap(lookupPaymentCard({ card_number: cardNumber })),
    enabled: cardNumber !== undefined,
    retry: false,
  });
  const currency = cardNumber && card.data ? card.data.currency : undefined;
  const walletChoices = currency ? wallets.filter((w) => w.currencies.includes(currency)) : [];
  // A wallet chosen for one currency is dropped only when the card's currency is known and the wallet does not take it.
  useEffect(() => {
    if (currency && paymentMethod && !wallets.some((w) => w.slug === paymentMethod && w.currencies.includes(currency))) setValue('payment_method', '');
  }, [currency, paymentMethod, wallets, setValue]);

  useEffect(() => setValue('submission_id', newSubmissionId()), [setValue]);

  const focusFirst = (errs: Partial<Record<string, unknown>>) => {
    const first = firstInvalid(FIELD_ORDER, errs);
    if (first) setTimeout(() => setFocus(first), 0);
  };

  const place = (failure: ActionFailure) => {
    const fields = new Set<string>(FIELD_ORDER);
    if (failure.fieldErrors) {
      const placed: Record<string, string> = {};
      for (const [field, message] of Object.entries(failure.fieldErrors)) {
        if (fields.has(field)) {
          setError(field as FormFieldName, { message });
          placed[field] = message;
        } else setAlert(message);
      }
      return focusFirst(placed);
    }
    if (failure.field && fields.has(failure.field)) {
      setError(failure.field as FormFieldName, { message: fieldMessage(failure) });
      return focusFirst({ [failure.field]: true });
    }
    setAlert(failure.message);
  };

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

  if (created) {
    return (
      <section
        aria-labelledby="created-heading"
        className="space-y-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
        data-testid="payment-created"
      >
        <h2 id="created-heading" className="text-lg font-semibold text-slate-900">
          Payment started
        </h2>
        <p className="text-sm text-slate-700">
          {formatMoney(created.amount, created.currency)} to card <span className="font-mono">{created.card_number}</span>; the customer pays{' '}
          {formatMoney(created.amount + created.service_fee, created.currency)} including a {formatMoney(created.service_fee, created.currency)} fee.
        </p>
        {created.checkout_url ? (
          <div>
            <label htmlFor="checkout-url" className="block text-sm font-medium text-slate-800">
              Checkout link for the customer
            </label>
            <div className="mt-1 flex flex-col gap-2 sm:flex-row">
              <input
                id="checkout-url"
                readOnly
                value={created.checkout_url}
                onFocus={(e) => e.currentTarget.select()}
                className="block w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm"
              />
              <Button
                variant="secondary"
                className="sm:w-auto"
                onClick={async () => {
                  await navigator.clipboard?.writeText(created.checkout_url!).catch(() => undefined);
                  setCopied(true);
                }}
              >
                {copied ? 'Copied' : 'Copy link'}
              </Button>
            </div>
            <p aria-live="polite" className="sr-only">
              {copied ? 'Link copied' : ''}
            </p>
          </div>
        ) : created.next_action ? (
          <p className="text-sm text-slate-700" data-testid="next-action" data-type={created.next_action.type}>
            <span className="font-medium">Next: </span>
            <span className="[overflow-wrap:anywhere]">{created.next_action.message}</span>
          </p>
        ) : (
          <p className="text-sm text-slate-700">The charge was sent to the customer’s {created.payment_method} wallet; it completes when they approve it.</p>
        )}
        <Link
          href={`/payments/${created.link_reference}`}
          className="inline-block text-sm font-medium text-emerald-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-emerald-700"
        >
          View payment {created.link_reference}
        </Link>
      </section>
    );
  }

  const busy = start.isPending;
  return (
    <form onSubmit={handleSubmit(onValid, onInvalid)} noValidate className="max-w-xl space-y-5 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">How the customer pays</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {(
            [
              ['hosted', 'Hosted link to share'],
              ['direct-charge', 'Direct wallet charge'],
            ] as const
          ).map(([value, label]) => (
            <label
              key={value}
              className="flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-slate-300 has-[:checked]:bg-emerald-50 has-[:checked]:ring-emerald-700"
            >
              <input type="radio" value={value} {...register('type')} className="h-4 w-4 accent-emerald-700" />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      <FormField
        id="card_number"
        label="Card number"
        error={errors.card_number?.message}
        hint={
          card.error
            ? failureOf(card.error).code === 'card_not_found'
              ? 'No card of your business has this number in this mode.'
              : failureOf(card.error).message
            : card.data && !card.data.active
              ? 'This card is disabled; enable it before taking a payment for it.'
              : 'One of your cards; spaces and dashes are fine.'
        }
      >
        <TextInput id="card_number" inputMode="numeric" autoComplete="off" invalid={!!errors.card_number} {...register('card_number')} />
      </FormField>
      <FormField
        id="amount"
        label="Amount"
        error={errors.amount?.message}
        hint="What the card receives, in units of its currency, e.g. 1,000 or 25.50. The fee is added for the customer to pay."
      >
        <TextInput id="amount" inputMode="decimal" autoComplete="off" invalid={!!errors.amount} {...register('amount')} />
      </FormField>
      <FormField
        id="merchant_reference"
        label="Order reference (optional)"
        error={errors.merchant_reference?.message}
        hint="Your own id for this payment; must be unique."
      >
        <TextInput id="merchant_reference" autoComplete="off" invalid={!!errors.merchant_reference} {...register('merchant_reference')} />
      </FormField>
      {type === 'direct-charge' && (
        <>
          <FormField
            id="payment_method"
            label="Wallet"
            error={errors.payment_method?.message}
            hint={currency ? `Those that take ${currency}, the card’s currency.` : 'Enter the card number first: only wallets for its currency are offered.'}
          >
            <SelectInput
              id="payment_method"
              invalid={!!errors.payment_method}
              disabled={!currency}
              {...register('payment_method')}
              // Controlled by the form's value, so the choice survives a failed attempt.
              value={paymentMethod ?? ''}
            >
              <option value="">{currency ? 'Choose…' : 'Enter the card number first'}</option>
              {walletChoices.map((w) => (
                <option key={w.slug} value={w.slug}>
                  {w.name}
                </option>
              ))}
            </SelectInput>
          </FormField>
          <FormField
            id="phone_number"
            label="Wallet phone number"
            error={errors.phone_number?.message}
            hint="As the customer gives it, e.g. 0911 234 567 or +251 911 234 567."
          >
            <TextInput id="phone_number" type="tel" autoComplete="off" invalid={!!errors.phone_number} {...register('phone_number')} />
          </FormField>
        </>
      )}
      {alert && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200">
          {alert}
        </p>
      )}
      <Button type="submit" disabled={busy}>
        {busy ? 'Starting…' : type === 'hosted' ? 'Create payment link' : 'Charge wallet'}
      </Button>
      <ConfirmDialog
        open={confirming !== null}
        title={type === 'hosted' ? 'Create a payment link this large?' : 'Charge the wallet this much?'}
        confirmLabel={type === 'hosted' ? 'Create the link' : 'Charge the wallet'}
        pending={start.isPending}
        onConfirm={() => start.mutate(true)}
        onClose={() => {
          if (!start.isPending) setConfirming(null);
        }}
      >
        {confirming && (
          <div className="space-y-2">
            <p>
              The card would receive{' '}
              <span className="font-semibold tabular-nums text-slate-900" data-testid="confirm-amount">
                {unitsText(confirming.amount)}
              </span>{' '}
              in its currency:
            </p>
            <p className="font-medium text-slate-900" data-testid="confirm-words">
              {amountInWords(confirming.amount)}
            </p>
            <p>Check the amount with the customer before going on.</p>
          </div>
        )}
      </ConfirmDialog>
    </form>
  );
}
