'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { type FieldErrors as FormErrors, useForm, useWatch } from 'react-hook-form';
import { checkPayout, previewPayout, sendPayout } from '@/server/actions/payouts';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatMoney } from '@/components/ui/money';
import { groupedUnitsText } from '@/lib/money-text';
import { isLargeAmount } from '@/lib/actions/confirmation';
import { sendPayoutSchema, type DestinationType, type SendPayoutInput, type SendPayoutValues } from '@/lib/actions/payout.validation';
import { PAYERS } from '@/lib/payouts/payout-rules';
import { FEE_PAYER_WORDS } from '@/components/history/payout-labels';
import type { RecipientPreview } from '@/lib/payouts/recipient-preview';
import type { BankOrWallet } from '@/lib/providers/banks';
import { FormField } from '@/components/ui/field';
import { FormAlert, RadioChoice, TextInput } from '@/components/forms/form-controls';
import { failurePlacer } from '@/components/forms/place-failure';
import { newSubmissionId } from '@/components/forms/new-submission-id';
import { failureOf, unwrap } from './action-result';
import { PayoutDestinationFields } from './payout-destination-fields';
import { FIELD_ORDER, failureText, fieldMessage } from './payout-form-messages';
import { PayoutConfirmDetails } from './payout-confirm-details';
import { PreviewFigures } from './payout-preview-parts';
import { previewInput, recipientQuery, usePayoutPreview } from './use-payout-preview';

const TYPE_LABELS: Record<DestinationType, string> = { card_to_card: 'Another gift card', b2b: 'Another business (B2B)', bank: 'Bank or wallet account' };

/** Who pays the fee, said by what it does to the money: added to what leaves the card, or taken from what the destination gets. */

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

  const { settledInput, preview, destinationNumber, recipient, currency, bankChoices, bankSlug } = usePayoutPreview(values, banks, setValue);

  const { focusFirst, place, isField } = failurePlacer({
    order: FIELD_ORDER,
    setError,
    setFocus,
    setAlert,
    fieldMessage: (failure) => fieldMessage(failure, preview.data),
  });

  const send = useMutation({
    // The form's text as typed goes to the server, which parses it again with the same schema; the submission id makes it once.
    mutationFn: (typed: SendPayoutInput) => unwrap(sendPayout(typed)),
    onSuccess: (data) => {
      void queryClient.invalidateQueries({ queryKey: ['payout-preview'] });
      // A payout at or above the approval threshold waits on the approvals page, which says so.
      router.push(data.approval ? `/approvals?requested=${encodeURIComponent(data.reference)}` : `/payouts/${encodeURIComponent(data.reference)}`);
    },
    onError: (err) => {
      setConfirming(null);
      place(failureOf(err));
    },
  });

  const onInvalid = (errs: FormErrors<SendPayoutInput>) => focusFirst(errs);

  /** Asks for a yes only of a payout its own statement would take now (limits included); else says why, on its field. */
  const ask = async (question: NonNullable<typeof confirming>) => {
    const refused = await unwrap(checkPayout(question.typed)).then(
      () => null,
      (err: unknown) => failureOf(err),
    );
    if (refused) return place(refused);
    setConfirming(question);
  };

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
        if (r.field && isField(r.field) && !placed[r.field]) {
          setError(r.field, { message: r.message });
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
      return ask({ values: v, typed, recipient: who });
    }
    if (v.destination_type === 'b2b') {
      if (checked?.merchantName) return ask({ values: v, typed, business: { name: checked.merchantName, merchantId: v.merchant_id! } });
    }
    if (isLargeAmount(v.amount)) return ask({ values: v, typed });
    send.mutate(typed);
  };

  const busy = send.isPending || send.isSuccess;
  const confirmRecipient = confirming?.recipient;
  const confirmCurrency = currency ?? confirmRecipient?.currency;
  const confirmMoney = (minor: number) => (confirmCurrency ? formatMoney(minor, confirmCurrency) : groupedUnitsText(minor));

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
              <RadioChoice key={t} value={t} {...register('destination_type')}>
                {TYPE_LABELS[t]}
              </RadioChoice>
            ))}
          </div>
        </fieldset>

        <PayoutDestinationFields
          type={type}
          register={register}
          errors={errors}
          preview={preview}
          recipient={recipient}
          destinationNumber={destinationNumber}
          currency={currency}
          bankChoices={bankChoices}
          bankSlug={bankSlug}
        />

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
              <RadioChoice key={p} value={p} {...register('charge_payer')}>
                {FEE_PAYER_WORDS[p]}
              </RadioChoice>
            ))}
          </div>
          {errors.charge_payer?.message && (
            <p id="charge_payer-error" className="mt-1 text-sm text-red-700">
              {errors.charge_payer.message}
            </p>
          )}
        </fieldset>

        {alert && <FormAlert>{alert}</FormAlert>}
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
          <PayoutConfirmDetails
            amount={confirming.values.amount}
            money={confirmMoney}
            currency={confirmCurrency}
            recipient={confirmRecipient}
            business={confirming.business}
            preview={preview.data}
          />
        )}
      </ConfirmDialog>
    </form>
  );
}
