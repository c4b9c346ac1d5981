'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
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
import type { RecipientPreview } from '@/lib/payouts/recipient-preview';
import type { BankOrWallet } from '@/lib/providers/banks';
import { FormField } from '@/components/ui/field';
import { FormAlert, RadioChoice, TextInput } from '@/components/forms/form-controls';
import { failurePlacer } from '@/components/forms/place-failure';
import { useFieldText } from '@/components/forms/field-text';
import { useErrorText } from '@/components/forms/use-error-text';
import { newSubmissionId } from '@/components/forms/new-submission-id';
import { failureOf, unwrap } from './action-result';
import { PayoutDestinationFields } from './payout-destination-fields';
import { FIELD_ORDER, usePayoutFailureText } from './payout-form-messages';
import { PayoutConfirmDetails } from './payout-confirm-details';
import { PreviewFigures } from './payout-preview-parts';
import { previewInput, recipientQuery, usePayoutPreview } from './use-payout-preview';

const DESTINATION_TYPES: DestinationType[] = ['card_to_card', 'b2b', 'bank'];

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
  const t = useTranslations('SendMoney');
  // Who pays the fee in the payout page's words, one pair for every payout type: added on top, or taken from the amount.
  const feePayers = useTranslations('Payouts');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const { fieldMessage, failureText, refusalText, recipientReason } = usePayoutFailureText();
  const errorText = useErrorText();
  const fieldText = useFieldText();
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
    alertText: errorText,
    fieldText,
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
          setError(r.field, { message: refusalText(r, checked!) });
          placed[r.field] = true;
        } else if (!r.field) setAlert(refusalText(r, checked!));
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
        setError('destination_card_number', { message: recipientReason(who) ?? t('recipient.cannotReceive') });
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
  const confirmMoney = (minor: number) => (confirmCurrency ? formatMoney(minor, confirmCurrency, locale) : groupedUnitsText(minor));

  return (
    <form onSubmit={handleSubmit(onValid, onInvalid)} noValidate className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="min-w-0 space-y-5 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <FormField
          id="card_number"
          label={t('sourceCard')}
          error={errors.card_number?.message}
          hint={currency && preview.data ? t('holds', { amount: formatMoney(preview.data.balance, currency, locale) }) : t('sourceCardHint')}
        >
          <TextInput id="card_number" inputMode="numeric" autoComplete="off" invalid={!!errors.card_number} {...register('card_number')} />
        </FormField>

        <fieldset>
          <legend className="text-sm font-medium text-slate-800">{t('sendTo')}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-3">
            {DESTINATION_TYPES.map((d) => (
              <RadioChoice key={d} value={d} {...register('destination_type')}>
                {t(`types.${d}`)}
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

        <FormField id="amount" label={currency ? t('amountIn', { currency }) : t('amount')} error={errors.amount?.message} hint={t('amountHint')}>
          <TextInput id="amount" inputMode="decimal" autoComplete="off" invalid={!!errors.amount} {...register('amount')} />
        </FormField>

        <fieldset aria-describedby={errors.charge_payer ? 'charge_payer-error' : undefined}>
          <legend className="text-sm font-medium text-slate-800">{t('serviceFee')}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {PAYERS[type].map((p) => (
              <RadioChoice key={p} value={p} {...register('charge_payer')}>
                {feePayers(`feePayers.${p}`)}
              </RadioChoice>
            ))}
          </div>
          {errors.charge_payer?.message && (
            <p id="charge_payer-error" className="mt-1 text-sm text-red-700">
              {fieldText(errors.charge_payer.message)}
            </p>
          )}
        </fieldset>

        {alert && <FormAlert>{alert}</FormAlert>}
        <Button type="submit" disabled={busy} aria-disabled={busy}>
          {busy ? t('sending') : t('send')}
        </Button>
      </div>

      <aside aria-labelledby="preview-heading" className="h-fit min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="preview-heading" className="text-base font-semibold text-slate-900">
          {t('preview')}
        </h2>
        <div aria-live="polite" data-testid="fee-preview" className="mt-3 text-sm">
          {!settledInput && <p className="text-slate-600">{t('previewEmpty')}</p>}
          {settledInput && preview.isPending && <p className="text-slate-600">{t('previewPending')}</p>}
          {settledInput && preview.error && <p className="text-red-700">{failureText(failureOf(preview.error), undefined)}</p>}
          {settledInput && preview.data && <PreviewFigures preview={preview.data} />}
        </div>
      </aside>

      <ConfirmDialog
        open={confirming !== null}
        title={confirmRecipient ? t('confirm.toCard') : confirming?.business ? t('confirm.toBusiness') : t('confirm.large')}
        confirmLabel={confirming ? t('confirm.sendAmount', { amount: confirmMoney(confirming.values.amount) }) : t('confirm.send')}
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
