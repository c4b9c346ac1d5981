'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { type FieldErrors as FormErrors, useForm, useWatch } from 'react-hook-form';
import { lookupRecipient, previewPayout, sendPayout } from '@/server/actions/payouts';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatMoney } from '@/components/ui/money';
import { parseAmountText, toMinorUnits, unitsText } from '@/lib/actions/amount.validation';
import { isLargeAmount } from '@/lib/actions/confirmation';
import type { ActionFailure } from '@/lib/actions/define-action';
import type { PayoutPreview } from '@/lib/actions/payout-actions';
import {
  normalizeCardNumber,
  sendPayoutSchema,
  type DestinationType,
  type PreviewPayoutInput,
  type SendPayoutInput,
  type SendPayoutValues,
} from '@/lib/actions/payout.validation';
import { PAYERS } from '@/lib/payouts/payout-rules';
import type { RecipientPreview } from '@/lib/payouts/recipient-preview';
import type { BankOrWallet } from '@/lib/rails/banks';
import { MIN_AMOUNT } from '@/lib/validation';
import { FormField } from '@/components/ui/field';
import { SelectInput, TextInput } from '@/components/forms/form-controls';
import { newSubmissionId } from '@/components/forms/new-submission-id';
import { failureOf, firstInvalid, unwrap } from './action-result';
import { amountInWords } from './amount-in-words';

const TYPE_LABELS: Record<DestinationType, string> = { card_to_card: 'Another gift card', b2b: 'Another business (B2B)', bank: 'Bank or wallet account' };

/** Who pays the fee, said by what it does to the money: added to what leaves the card, or taken from what the destination gets. */
const PAYER_LABELS: Record<string, string> = {
  sender: 'Sender pays: the fee is added on top, the card pays the amount plus the fee',
  customer: 'Card pays: the fee is added on top, the card pays the amount plus the fee',
  receiver: 'Receiver pays: the fee is taken from the amount, the destination card gets less',
  business: 'Destination pays: the fee is taken from the amount, the destination gets less',
};

/** The form's fields in the order they appear: the first with an error gets the focus. */
const FIELD_ORDER = [
  'card_number',
  'destination_type',
  'destination_card_number',
  'merchant_id',
  'bank_slug',
  'account_number',
  'account_name',
  'amount',
  'charge_payer',
] as const;
type FormFieldName = (typeof FIELD_ORDER)[number];

/** A core refusal in the form's words, chosen by its code; the core's own sentence otherwise. */
function fieldMessage(failure: ActionFailure, preview: PayoutPreview | undefined): string {
  switch (failure.code) {
    case 'card_not_found':
      return 'No card of your business has this number in this mode.';
    case 'card_disabled':
      return 'This card is disabled and cannot pay out.';
    case 'destination_card_not_found':
      return 'No active gift card has this number.';
    case 'destination_card_disabled':
      return 'This card is disabled and cannot receive money.';
    case 'same_card':
      return 'This is the source card itself; choose another card.';
    case 'currency_mismatch':
      return 'This card holds another currency than the source card.';
    case 'insufficient_balance':
      return 'The card does not hold enough for this payout and its fee.';
    case 'amount_below_fee':
      return preview?.amount
        ? `The amount must be more than the service fee of ${formatMoney(preview.fee, preview.currency)}, since the fee comes out of it.`
        : 'The amount must be more than the service fee, since the fee comes out of it.';
    default:
      return failure.message;
  }
}

/** A failed lookup in words: the form's own field errors, else the core's refusal. */
function failureText(failure: ActionFailure, preview: PayoutPreview | undefined): string {
  return failure.fieldErrors ? Object.values(failure.fieldErrors).join(' ') : fieldMessage(failure, preview);
}

/** The preview's input from what is typed so far: undefined until the source card is a card number. */
function previewInput(v: Partial<SendPayoutInput>): PreviewPayoutInput | undefined {
  const card = normalizeCardNumber(v.card_number ?? '');
  if (!card || !v.destination_type || !v.charge_payer || !PAYERS[v.destination_type].includes(v.charge_payer)) return undefined;
  const amount = parseAmountText(v.amount ?? '');
  // An amount the payout would refuse on its own (below 1.00) is left out: the card's currency and balance still show.
  const quotable = amount.ok && toMinorUnits(amount.text) >= MIN_AMOUNT;
  const destination = normalizeCardNumber(v.destination_card_number ?? '');
  return {
    card_number: card,
    destination_type: v.destination_type,
    charge_payer: v.charge_payer,
    ...(quotable && { amount: amount.text }),
    ...(v.destination_type === 'card_to_card' && destination && { destination_card_number: destination }),
    ...(v.destination_type === 'b2b' && v.merchant_id?.trim() && { merchant_id: v.merchant_id.trim() }),
    ...(v.destination_type === 'bank' && v.bank_slug && { bank_slug: v.bank_slug }),
  };
}

/** The value a quarter second after it stops changing, compared by its JSON so a new object of the same content is no change. */
function useSettled<T>(value: T, ms = 250): T {
  const json = JSON.stringify(value ?? null);
  const [settled, setSettled] = useState(json);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(json), ms);
    return () => clearTimeout(timer);
  }, [json, ms]);
  return JSON.parse(settled) as T;
}

const recipientQuery = (source: string | undefined, destination: string) => ({
  queryKey: ['payout-recipient', source ?? null, destination] as const,
  queryFn: () => unwrap(lookupRecipient({ card_number: source, destination_card_number: destination })),
  retry: false,
  staleTime: 10_000,
});

export function SendPayoutForm({
  defaultCard,
  defaultMerchantId = '',
  banks,
}: {
  defaultCard: string;
  /** A business chosen from search: the form opens on a B2B payout to it. */
  defaultMerchantId?: string;
  banks: readonly BankOrWallet[];
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  /** The payout awaiting the user's yes, with the recipient it was shown (card-to-card). */
  const [confirming, setConfirming] = useState<{
    values: SendPayoutValues;
    typed: SendPayoutInput;
    recipient?: RecipientPreview;
    /** A B2B payout's destination by name: a merchant id alone (perhaps from a link) is never sent to unseen. */
    business?: { name: string; merchantId: string };
  } | null>(null);
  const form = useForm<SendPayoutInput, unknown, SendPayoutValues>({
    resolver: zodResolver(sendPayoutSchema),
    shouldFocusError: false,
    defaultValues: {
      submission_id: '',
      card_number: defaultCard,
      destination_type: defaultMerchantId ? 'b2b' : 'card_to_card',
      amount: '',
      charge_payer: defaultMerchantId ? 'business' : 'sender',
      destination_card_number: '',
      merchant_id: defaultMerchantId,
      bank_slug: '',
      account_number: '',
      account_name: '',
    },
  });
  const { register, handleSubmit, setValue, setError, setFocus, formState } = form;
  const errors = formState.errors;

  // One id per form, made in the browser: every submission of this form carries it, so the server moves money once.
  useEffect(() => setValue('submission_id', newSubmissionId()), [setValue]);

  const values = useWatch({ control: form.control }) as Partial<SendPayoutInput>;
  const type = values.destination_type ?? 'card_to_card';
  const payer = values.charge_payer ?? 'sender';

  useEffect(() => {
    if (!PAYERS[type].includes(payer)) setValue('charge_payer', PAYERS[type][0] as SendPayoutInput['charge_payer']);
  }, [type, payer, setValue]);

  const settledInput = useSettled(previewInput(values));
  const preview = useQuery({
    queryKey: ['payout-preview', settledInput] as const,
    queryFn: () => unwrap(previewPayout(settledInput)),
    enabled: settledInput !== undefined,
    retry: false,
    staleTime: 0,
    // The same card's last figures stay while new ones load, so the bank list and currency do not flicker; another card's never do.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1]?.card_number === settledInput?.card_number ? previous : undefined),
  });
  const sourceNumber = normalizeCardNumber(values.card_number ?? '');
  const destinationNumber = useSettled(type === 'card_to_card' ? normalizeCardNumber(values.destination_card_number ?? '') : undefined);
  const recipient = useQuery({ ...recipientQuery(sourceNumber, destinationNumber ?? ''), enabled: destinationNumber !== undefined });

  const currency = settledInput && preview.data && sourceNumber === settledInput.card_number ? preview.data.currency : undefined;
  const bankChoices = currency ? banks.filter((b) => b.currencies.includes(currency)) : [];
  const bankSlug = values.bank_slug ?? '';
  // A bank chosen for one currency is dropped only when the card's currency is known and the bank does not take it.
  useEffect(() => {
    if (currency && bankSlug && !banks.some((b) => b.slug === bankSlug && b.currencies.includes(currency))) setValue('bank_slug', '');
  }, [currency, bankSlug, banks, setValue]);

  const focusFirst = (errs: Partial<Record<string, unknown>>) => {
    const first = firstInvalid(FIELD_ORDER, errs);
    if (first) setTimeout(() => setFocus(first), 0);
  };

  const place = (failure: ActionFailure) => {
    const visible = new Set<string>(FIELD_ORDER);
    if (failure.fieldErrors) {
      const placed: Record<string, string> = {};
      for (const [field, message] of Object.entries(failure.fieldErrors)) {
        if (visible.has(field)) {
          setError(field as FormFieldName, { message });
          placed[field] = message;
        } else setAlert(message);
      }
      focusFirst(placed);
      return;
    }
    if (failure.field && visible.has(failure.field)) {
      setError(failure.field as FormFieldName, { message: fieldMessage(failure, preview.data) });
      focusFirst({ [failure.field]: true });
      return;
    }
    setAlert(failure.message);
  };

  const send = useMutation({
    // The form's text as typed goes to the server, which parses it again with the same schema; the submission id makes it once.
    mutationFn: (typed: SendPayoutInput) => unwrap(sendPayout(typed)),
    onSuccess: (data) => {
      void queryClient.invalidateQueries({ queryKey: ['payout-preview'] });
      router.push(`/payouts/${encodeURIComponent(data.reference)}`);
    },
    onError: (err) => {
      setConfirming(null);
      place(failureOf(err));
    },
  });

  const onInvalid = (errs: FormErrors<SendPayoutInput>) => focusFirst(errs);

  const onValid = async (v: SendPayoutValues) => {
    if (send.isPending || send.isSuccess) return;
    setAlert(null);
    const typed = form.getValues();
    // The payout's own checks, fresh, before any question: a payout the preview refuses (too little on the card, a
    // disabled card, a bank that does not take the currency) is refused on its field, never asked to be confirmed.
    const input = previewInput(typed);
    const checked = input ? await unwrap(previewPayout(input)).catch((err: unknown) => failureOf(err)) : undefined;
    if (checked && 'ok' in checked) return place(checked);
    // A destination card's refusal is left to the recipient check below, which says why in the recipient's terms.
    const refusals = (checked?.refusals ?? []).filter((r) => !(v.destination_type === 'card_to_card' && r.field === 'destination_card_number'));
    if (refusals.length) {
      const placed: Record<string, true> = {};
      for (const r of refusals) {
        if (r.field && (FIELD_ORDER as readonly string[]).includes(r.field) && !placed[r.field]) {
          setError(r.field as FormFieldName, { message: r.message });
          placed[r.field] = true;
        } else if (!r.field) setAlert(r.message);
      }
      return focusFirst(placed);
    }
    if (v.destination_type === 'card_to_card') {
      // The recipient is shown before any card-to-card payout; one that cannot receive is refused here, on its field.
      const who = await queryClient
        .fetchQuery({ ...recipientQuery(v.card_number, v.destination_card_number!), staleTime: 0 })
        .catch((err: unknown) => failureOf(err));
      if ('ok' in who) return place(who);
      if (!who.canReceive) {
        setError('destination_card_number', { message: who.reason ?? 'This card cannot receive money.' });
        return focusFirst({ destination_card_number: true });
      }
      return setConfirming({ values: v, typed, recipient: who });
    }
    if (v.destination_type === 'b2b') {
      if (checked?.merchantName) return setConfirming({ values: v, typed, business: { name: checked.merchantName, merchantId: v.merchant_id! } });
    }
    if (isLargeAmount(v.amount)) return setConfirming({ values: v, typed });
    send.mutate(typed);
  };

  const busy = send.isPending || send.isSuccess;
  const confirmRecipient = confirming?.recipient;
  const confirmCurrency = currency ?? confirmRecipient?.currency;
  const confirmMoney = (minor: number) => (confirmCurrency ? formatMoney(minor, confirmCurrency) : unitsText(minor));

  return (
    <form onSubmit={handleSubmit(onValid, onInvalid)} noValidate className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="min-w-0 space-y-5 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <FormField
          id="card_number"
          label="Source card number"
          error={errors.card_number?.message}
          hint={currency && preview.data ? `Holds ${formatMoney(preview.data.balance, currency)}.` : 'One of your cards; spaces and dashes are fine.'}
        >
          <TextInput id="card_number" inputMode="numeric" autoComplete="off" invalid={!!errors.card_number} {...register('card_number')} />
        </FormField>

        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Send to</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-3">
            {(Object.keys(TYPE_LABELS) as DestinationType[]).map((t) => (
              <label
                key={t}
                className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-slate-300 has-[:checked]:bg-emerald-50 has-[:checked]:ring-emerald-700"
              >
                <input type="radio" value={t} {...register('destination_type')} className="h-4 w-4 accent-emerald-700" />
                {TYPE_LABELS[t]}
              </label>
            ))}
          </div>
        </fieldset>

        {type === 'card_to_card' && (
          <div>
            <FormField
              id="destination_card_number"
              label="Destination card number"
              error={errors.destination_card_number?.message}
              hint="Any active card of the same currency and mode; paste it as it is shown, spaces and all."
            >
              <TextInput
                id="destination_card_number"
                inputMode="numeric"
                autoComplete="off"
                invalid={!!errors.destination_card_number}
                {...register('destination_card_number')}
              />
            </FormField>
            <div aria-live="polite" data-testid="recipient" className="mt-2 text-sm">
              {destinationNumber && recipient.isFetching && !recipient.data && <p className="text-slate-600">Looking up the card…</p>}
              {destinationNumber && recipient.error && <p className="text-red-700">{failureText(failureOf(recipient.error), undefined)}</p>}
              {destinationNumber && recipient.data && <RecipientCard recipient={recipient.data} />}
            </div>
          </div>
        )}
        {type === 'b2b' && (
          <FormField id="merchant_id" label="Merchant id" error={errors.merchant_id?.message} hint="The public merchant id of the business to pay.">
            <TextInput id="merchant_id" autoComplete="off" invalid={!!errors.merchant_id} {...register('merchant_id')} />
            {preview.data?.merchantName && !errors.merchant_id && (
              <p className="mt-1 text-sm text-slate-800" data-testid="merchant-name">
                Pays <span className="font-semibold">{preview.data.merchantName}</span>
              </p>
            )}
          </FormField>
        )}
        {type === 'bank' && (
          <>
            <FormField
              id="bank_slug"
              label="Bank or wallet"
              error={errors.bank_slug?.message}
              hint={
                currency
                  ? `Those that take ${currency}, the card’s currency.`
                  : 'Enter the source card first: only banks and wallets for its currency are offered.'
              }
            >
              <SelectInput
                id="bank_slug"
                invalid={!!errors.bank_slug}
                disabled={!currency}
                {...register('bank_slug')}
                // Controlled by the form's value, so the choice survives a failed send and a refreshed preview.
                value={bankSlug}
              >
                <option value="">{currency ? 'Choose…' : 'Enter the source card first'}</option>
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
            <FormField id="account_name" label="Account holder’s name" error={errors.account_name?.message}>
              <TextInput id="account_name" autoComplete="off" invalid={!!errors.account_name} {...register('account_name')} />
            </FormField>
          </>
        )}

        <FormField
          id="amount"
          label={`Amount${currency ? ` (${currency})` : ''}`}
          error={errors.amount?.message}
          hint="In units of the card’s currency, e.g. 1,000 or 25.50."
        >
          <TextInput id="amount" inputMode="decimal" autoComplete="off" invalid={!!errors.amount} {...register('amount')} />
        </FormField>

        <fieldset aria-describedby={errors.charge_payer ? 'charge_payer-error' : undefined}>
          <legend className="text-sm font-medium text-slate-800">Service fee</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {PAYERS[type].map((p) => (
              <label
                key={p}
                className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-slate-300 has-[:checked]:bg-emerald-50 has-[:checked]:ring-emerald-700"
              >
                <input type="radio" value={p} {...register('charge_payer')} className="h-4 w-4 shrink-0 accent-emerald-700" />
                {PAYER_LABELS[p]}
              </label>
            ))}
          </div>
          {errors.charge_payer?.message && (
            <p id="charge_payer-error" className="mt-1 text-sm text-red-700">
              {errors.charge_payer.message}
            </p>
          )}
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

      <aside aria-labelledby="preview-heading" className="h-fit min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="preview-heading" className="text-base font-semibold text-slate-900">
          Preview
        </h2>
        <div aria-live="polite" data-testid="fee-preview" className="mt-3 text-sm">
          {!settledInput && <p className="text-slate-600">Enter the source card and an amount to see the fee.</p>}
          {settledInput && preview.isPending && <p className="text-slate-600">Working out the fee…</p>}
          {settledInput && preview.error && <p className="text-red-700">{failureText(failureOf(preview.error), undefined)}</p>}
          {settledInput && preview.data && <PreviewFigures preview={preview.data} />}
        </div>
      </aside>

      <ConfirmDialog
        open={confirming !== null}
        title={confirmRecipient ? 'Send to this card?' : confirming?.business ? 'Pay this business?' : 'Send this large payout?'}
        confirmLabel={confirming ? `Send ${confirmMoney(confirming.values.amount)}` : 'Send'}
        pending={send.isPending}
        onConfirm={() => confirming && !send.isPending && send.mutate({ ...confirming.typed, confirmed: true })}
        onClose={() => {
          if (!send.isPending) setConfirming(null);
        }}
      >
        {confirming && (
          <div className="space-y-3">
            {confirmRecipient && <RecipientCard recipient={confirmRecipient} />}
            {confirming.business && (
              <div data-testid="confirm-business" className="rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
                <p className="font-semibold text-slate-900">{confirming.business.name}</p>
                <p className="font-mono text-xs text-slate-600">{confirming.business.merchantId}</p>
              </div>
            )}
            <p>
              <span className="block text-lg font-semibold tabular-nums text-slate-900" data-testid="confirm-amount">
                {confirmMoney(confirming.values.amount)}
              </span>
              {isLargeAmount(confirming.values.amount) && (
                <span className="block text-slate-700" data-testid="confirm-words">
                  {amountInWords(confirming.values.amount, confirmCurrency)}
                </span>
              )}
            </p>
            {preview.data?.amount === confirming.values.amount && (
              <p className="text-slate-700">
                {formatMoney(preview.data.debit, preview.data.currency)} leaves the card; the destination gets{' '}
                {formatMoney(preview.data.credit, preview.data.currency)}.
              </p>
            )}
            <p className="text-slate-700">Money moved cannot be taken back from here.</p>
          </div>
        )}
      </ConfirmDialog>
    </form>
  );
}

function RecipientCard({ recipient: r }: { recipient: RecipientPreview }) {
  return (
    <div data-testid="recipient-card" className={`rounded-lg px-3 py-2 ring-1 ${r.canReceive ? 'bg-slate-50 ring-slate-200' : 'bg-red-50 ring-red-200'}`}>
      <p className="font-medium text-slate-900">
        {r.ownCard ? (r.holder ?? 'One of your cards, no name on file') : r.businessName}
        <span className="font-normal text-slate-700">
          {' '}
          · card ending {r.lastFour} · {r.currency}
        </span>
      </p>
      {!r.ownCard && <p className="text-slate-700">A card of another business; its holder’s name is that business’s to show.</p>}
      {r.reason && <p className="font-medium text-red-800">{r.reason}</p>}
    </div>
  );
}

function PreviewFigures({ preview: p }: { preview: PayoutPreview }) {
  const money = (n: number) => formatMoney(n, p.currency);
  if (p.amount === null) {
    return (
      <>
        <p className="text-slate-700" data-testid="preview-balance">
          The card holds {money(p.balance)}.
        </p>
        <Refusals preview={p} />
      </>
    );
  }
  const rows: [string, string, string][] = [
    ['Amount', money(p.amount), 'preview-amount'],
    ['Service fee', money(p.fee), 'preview-fee'],
    ['Fee', p.feeFromAmount ? 'Taken from the amount' : 'Added on top', 'preview-payer'],
    ['Leaves the card', money(p.debit), 'preview-debit'],
    ['The destination gets', money(p.credit), 'preview-credit'],
    ['Card balance now', money(p.balance), 'preview-balance'],
  ];
  return (
    <>
      <dl className="space-y-1.5">
        {rows.map(([label, value, id]) => (
          <div key={label} className="flex justify-between gap-3">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-right font-medium tabular-nums text-slate-900" data-testid={id}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <Refusals preview={p} />
    </>
  );
}

function Refusals({ preview: p }: { preview: PayoutPreview }) {
  if (p.refusals.length === 0) return null;
  return (
    <ul className="mt-3 space-y-1 font-medium text-red-700" data-testid="preview-refusals">
      {p.refusals.map((r) => (
        <li key={r.code}>{r.message}</li>
      ))}
    </ul>
  );
}
