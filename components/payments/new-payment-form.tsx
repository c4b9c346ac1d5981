'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { startPayment } from '@/server/actions/payments';
import { Button } from '@/components/ui/button';
import { formatMoney } from '@/components/ui/money';
import { createPaymentFormSchema, type CreatePaymentFormInput, type CreatePaymentFormValues } from '@/lib/actions/payment.validation';
import type { CreatedPayment } from '@/lib/payments/create-payment';
import type { BankOrWallet } from '@/lib/rails/banks';
import { FormField } from '@/components/ui/field';
import { SelectInput, TextInput } from '@/components/forms/form-controls';
import { newSubmissionId } from '@/components/forms/new-submission-id';

function fieldFor(message: string): keyof CreatePaymentFormInput | undefined {
  if (/^(Gift card not found|Gift card disabled)/.test(message)) return 'card_number';
  if (/^Duplicate merchant reference/.test(message)) return 'merchant_reference';
  if (/^Invalid phone number/.test(message)) return 'phone_number';
  return undefined;
}

export function NewPaymentForm({ defaultCard, wallets }: { defaultCard: string; wallets: readonly BankOrWallet[] }) {
  const [alert, setAlert] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedPayment | null>(null);
  const [copied, setCopied] = useState(false);
  const submitting = useRef(false);
  const form = useForm<CreatePaymentFormInput, unknown, CreatePaymentFormValues>({
    resolver: zodResolver(createPaymentFormSchema),
    defaultValues: { submission_id: '', type: 'hosted', card_number: defaultCard, amount: '', merchant_reference: '', phone_number: '', payment_method: '' },
  });
  const { register, handleSubmit, setValue, setError, getValues, formState } = form;
  const errors = formState.errors;
  const type = useWatch({ control: form.control, name: 'type' });

  useEffect(() => setValue('submission_id', newSubmissionId()), [setValue]);

  const onSubmit = handleSubmit(async () => {
    if (submitting.current) return;
    submitting.current = true;
    setAlert(null);
    try {
      const values = getValues();
      const res = await startPayment({ ...values, merchant_reference: values.merchant_reference || undefined });
      if (res.ok) {
        setCreated(res.data);
        return;
      }
      if (res.fieldErrors) {
        for (const [field, message] of Object.entries(res.fieldErrors)) {
          if (field in values) setError(field as keyof CreatePaymentFormInput, { message });
          else setAlert(message);
        }
        return;
      }
      const field = fieldFor(res.message);
      if (field) setError(field, { message: res.message });
      else setAlert(res.message);
    } finally {
      submitting.current = false;
    }
  });

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

  const busy = formState.isSubmitting;
  return (
    <form onSubmit={onSubmit} noValidate className="max-w-xl space-y-5 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
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
      <FormField id="card_number" label="Card number" error={errors.card_number?.message}>
        <TextInput id="card_number" inputMode="numeric" autoComplete="off" invalid={!!errors.card_number} {...register('card_number')} />
      </FormField>
      <FormField
        id="amount"
        label="Amount"
        error={errors.amount?.message}
        hint="What the card receives, in units of its currency, e.g. 25.50. The fee is added for the customer."
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
          <FormField id="payment_method" label="Wallet" error={errors.payment_method?.message}>
            <SelectInput id="payment_method" invalid={!!errors.payment_method} {...register('payment_method')}>
              <option value="">Choose…</option>
              {wallets.map((w) => (
                <option key={w.slug} value={w.slug}>
                  {w.name} ({w.currencies.join(', ')})
                </option>
              ))}
            </SelectInput>
          </FormField>
          <FormField id="phone_number" label="Wallet phone number" error={errors.phone_number?.message} hint="With country code, e.g. +251911234567.">
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
    </form>
  );
}
