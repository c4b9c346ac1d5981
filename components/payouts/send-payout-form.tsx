'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { previewPayout, sendPayout } from '@/server/actions/payouts';
import { Button } from '@/components/ui/button';
import { formatMoney } from '@/components/ui/money';
import type { PayoutPreview } from '@/lib/actions/payout-actions';
import {
  CHARGE_PAYERS,
  previewPayoutSchema,
  sendPayoutSchema,
  type DestinationType,
  type SendPayoutInput,
  type SendPayoutValues,
} from '@/lib/actions/payout.validation';
import type { BankOrWallet } from '@/lib/rails/banks';
import { FormField } from '@/components/ui/field';
import { SelectInput, TextInput } from '@/components/forms/form-controls';
import { newSubmissionId } from '@/components/forms/new-submission-id';

const TYPE_LABELS: Record<DestinationType, string> = { card_to_card: 'Another gift card', b2b: 'Another business (B2B)', bank: 'Bank or wallet account' };
const PAYER_LABELS: Record<string, string> = {
  sender: 'Sender pays (added to the debit)',
  receiver: 'Receiver pays (taken from the amount)',
  business: 'Business pays (taken from the amount)',
  customer: 'Customer pays (added to the debit)',
};

/** Which field a core refusal belongs on, by its SPEC.md title; anything else goes to the form's alert. */
function fieldFor(message: string, type: DestinationType): keyof SendPayoutInput | undefined {
  if (/^(Gift card not found|Gift card disabled)/.test(message)) return 'card_number';
  if (/^(Destination card|Same card|Currency mismatch)/.test(message)) return 'destination_card_number';
  if (/^(Insufficient balance|Amount is too small)/.test(message)) return 'amount';
  if (/^Invalid charge payer/.test(message)) return 'charge_payer';
  if (/^Payout request failed/.test(message)) return type === 'b2b' ? 'merchant_id' : 'bank_slug';
  return undefined;
}

type PreviewState = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; preview: PayoutPreview } | { state: 'error'; message: string };

export function SendPayoutForm({ defaultCard, banks }: { defaultCard: string; banks: readonly BankOrWallet[] }) {
  const router = useRouter();
  const [alert, setAlert] = useState<string | null>(null);
  const [preview, setPreview] = useState<PreviewState>({ state: 'idle' });
  const submitting = useRef(false);
  const [sent, setSent] = useState(false);
  const form = useForm<SendPayoutInput, unknown, SendPayoutValues>({
    resolver: zodResolver(sendPayoutSchema),
    defaultValues: {
      submission_id: '',
      card_number: defaultCard,
      destination_type: 'card_to_card',
      amount: '',
      charge_payer: 'sender',
      destination_card_number: '',
      merchant_id: '',
      bank_slug: '',
      account_number: '',
      account_name: '',
    },
  });
  const { register, handleSubmit, setValue, setError, getValues, formState } = form;
  const errors = formState.errors;

  // One id per form, made in the browser: every submission of this form carries it, so the server moves money once.
  useEffect(() => setValue('submission_id', newSubmissionId()), [setValue]);

  const [cardNumber, type, amount, payer] = useWatch({ control: form.control, name: ['card_number', 'destination_type', 'amount', 'charge_payer'] });

  useEffect(() => {
    if (!CHARGE_PAYERS[type].includes(payer)) setValue('charge_payer', CHARGE_PAYERS[type][0] as SendPayoutInput['charge_payer']);
  }, [type, payer, setValue]);

  useEffect(() => {
    const input = { card_number: cardNumber, destination_type: type, amount, charge_payer: payer };
    if (!previewPayoutSchema.safeParse(input).success) {
      setPreview({ state: 'idle' });
      return;
    }
    let stale = false;
    setPreview({ state: 'loading' });
    const timer = setTimeout(async () => {
      const res = await previewPayout(input);
      if (stale) return;
      setPreview(
        res.ok ? { state: 'ready', preview: res.data } : { state: 'error', message: res.fieldErrors ? Object.values(res.fieldErrors).join(' ') : res.message },
      );
    }, 250);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [cardNumber, type, amount, payer]);

  const onSubmit = handleSubmit(async () => {
    if (submitting.current) return;
    submitting.current = true;
    setAlert(null);
    try {
      const res = await sendPayout(getValues());
      if (res.ok) {
        setSent(true);
        router.push(`/payouts/${encodeURIComponent(res.data.reference)}`);
        return;
      }
      if (res.fieldErrors) {
        for (const [field, message] of Object.entries(res.fieldErrors)) {
          if (field in getValues()) setError(field as keyof SendPayoutInput, { message });
          else setAlert(message);
        }
        return;
      }
      const field = fieldFor(res.message, type);
      if (field) setError(field, { message: res.message });
      else setAlert(res.message);
    } finally {
      submitting.current = false;
    }
  });

  const currency = preview.state === 'ready' ? preview.preview.currency : undefined;
  const bankChoices = currency ? banks.filter((b) => b.currencies.includes(currency as BankOrWallet['currencies'][number])) : banks;
  const busy = formState.isSubmitting || sent;

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="space-y-5 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <FormField id="card_number" label="Source card number" error={errors.card_number?.message}>
          <TextInput id="card_number" inputMode="numeric" autoComplete="off" invalid={!!errors.card_number} {...register('card_number')} />
        </FormField>

        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Send to</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-3">
            {(Object.keys(TYPE_LABELS) as DestinationType[]).map((t) => (
              <label
                key={t}
                className="flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-slate-300 has-[:checked]:bg-emerald-50 has-[:checked]:ring-emerald-700"
              >
                <input type="radio" value={t} {...register('destination_type')} className="h-4 w-4 accent-emerald-700" />
                {TYPE_LABELS[t]}
              </label>
            ))}
          </div>
        </fieldset>

        {type === 'card_to_card' && (
          <FormField
            id="destination_card_number"
            label="Destination card number"
            error={errors.destination_card_number?.message}
            hint="Any active card of the same currency and mode."
          >
            <TextInput
              id="destination_card_number"
              inputMode="numeric"
              autoComplete="off"
              invalid={!!errors.destination_card_number}
              {...register('destination_card_number')}
            />
          </FormField>
        )}
        {type === 'b2b' && (
          <FormField id="merchant_id" label="Merchant id" error={errors.merchant_id?.message} hint="The public merchant id of the business to pay.">
            <TextInput id="merchant_id" autoComplete="off" invalid={!!errors.merchant_id} {...register('merchant_id')} />
          </FormField>
        )}
        {type === 'bank' && (
          <>
            <FormField
              id="bank_slug"
              label="Bank or wallet"
              error={errors.bank_slug?.message}
              hint={currency ? `Accepting ${currency}.` : 'Enter the source card to see the banks for its currency.'}
            >
              <SelectInput id="bank_slug" invalid={!!errors.bank_slug} {...register('bank_slug')}>
                <option value="">Choose…</option>
                {bankChoices.map((b) => (
                  <option key={b.slug} value={b.slug}>
                    {b.name} ({b.type})
                  </option>
                ))}
              </SelectInput>
            </FormField>
            <FormField id="account_number" label="Account number" error={errors.account_number?.message}>
              <TextInput id="account_number" autoComplete="off" invalid={!!errors.account_number} {...register('account_number')} />
            </FormField>
            <FormField id="account_name" label="Account name" error={errors.account_name?.message}>
              <TextInput id="account_name" autoComplete="off" invalid={!!errors.account_name} {...register('account_name')} />
            </FormField>
          </>
        )}

        <FormField
          id="amount"
          label={`Amount${currency ? ` (${currency})` : ''}`}
          error={errors.amount?.message}
          hint="In units of the card’s currency, e.g. 25.50."
        >
          <TextInput id="amount" inputMode="decimal" autoComplete="off" invalid={!!errors.amount} {...register('amount')} />
        </FormField>

        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Service fee</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {CHARGE_PAYERS[type].map((p) => (
              <label
                key={p}
                className="flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-slate-300 has-[:checked]:bg-emerald-50 has-[:checked]:ring-emerald-700"
              >
                <input type="radio" value={p} {...register('charge_payer')} className="h-4 w-4 accent-emerald-700" />
                {PAYER_LABELS[p]}
              </label>
            ))}
          </div>
          {errors.charge_payer?.message && <p className="mt-1 text-sm text-red-700">{errors.charge_payer.message}</p>}
        </fieldset>

        {alert && (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200">
            {alert}
          </p>
        )}
        <Button type="submit" disabled={busy} aria-disabled={busy}>
          {busy ? 'Sending…' : 'Send payout'}
        </Button>
      </div>

      <aside aria-labelledby="preview-heading" className="h-fit rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="preview-heading" className="text-base font-semibold text-slate-900">
          Preview
        </h2>
        <div aria-live="polite" data-testid="fee-preview" className="mt-3 text-sm">
          {preview.state === 'idle' && <p className="text-slate-600">Enter the source card and an amount to see the fee.</p>}
          {preview.state === 'loading' && <p className="text-slate-600">Working out the fee…</p>}
          {preview.state === 'error' && <p className="text-red-700">{preview.message}</p>}
          {preview.state === 'ready' && <PreviewFigures preview={preview.preview} />}
        </div>
      </aside>
    </form>
  );
}

function PreviewFigures({ preview: p }: { preview: PayoutPreview }) {
  const money = (n: number) => formatMoney(n, p.currency);
  const rows: [string, string, string][] = [
    ['Amount', money(p.amount), 'preview-amount'],
    ['Service fee', money(p.fee), 'preview-fee'],
    ['Fee paid by', p.chargePayer, 'preview-payer'],
    ['Source card loses', money(p.debit), 'preview-debit'],
    ['Destination gets', money(p.credit), 'preview-credit'],
    ['Card balance now', money(p.balance), 'preview-balance'],
  ];
  return (
    <>
      <dl className="space-y-1.5">
        {rows.map(([label, value, id]) => (
          <div key={label} className="flex justify-between gap-3">
            <dt className="text-slate-600">{label}</dt>
            <dd className="font-medium tabular-nums capitalize text-slate-900" data-testid={id}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {!p.sufficient && <p className="mt-3 font-medium text-red-700">The card does not hold enough for this payout and its fee.</p>}
    </>
  );
}
