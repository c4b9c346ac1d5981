import { useLocale, useTranslations } from 'next-intl';
import { useFieldText } from '@/components/forms/field-text';
import { useErrorText } from '@/components/forms/use-error-text';
import { formatMoney } from '@/components/ui/money';
import type { ActionFailure } from '@/lib/actions/define-action';
import type { PayoutPreview, PayoutRefusal } from '@/lib/actions/payout-actions';
import type { RecipientPreview } from '@/lib/payouts/recipient-preview';

/** The form's fields in the order they appear: the first with an error gets the focus. */
export const FIELD_ORDER = [
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

/** The send form's refusals in the reader's words, chosen by the core's code; the core's own sentence otherwise. */
export function usePayoutFailureText() {
  const t = useTranslations('SendMoney');
  const locale = useLocale();
  const errorText = useErrorText();
  const fieldText = useFieldText();
  const money = (minor: number, currency: string) => formatMoney(minor, currency, locale === 'am' ? 'am' : 'en');

  const fieldMessage = (failure: Pick<ActionFailure, 'code' | 'message'>, preview: PayoutPreview | undefined): string => {
    switch (failure.code) {
      case 'card_not_found':
        return t('errors.cardNotFound');
      case 'card_disabled':
        return t('errors.cardDisabled');
      case 'destination_card_not_found':
        return t('errors.destinationNotFound');
      case 'destination_card_disabled':
        return t('errors.destinationDisabled');
      case 'same_card':
        return t('errors.sameCard');
      case 'currency_mismatch':
        return t('errors.currencyMismatch');
      case 'insufficient_balance':
        return t('errors.insufficient');
      case 'amount_below_fee':
        return preview?.amount ? t('errors.belowFeeOf', { fee: money(preview.fee, preview.currency) }) : t('errors.belowFee');
      default:
        return errorText(failure);
    }
  };

  /** A failed lookup in words: the form's own field errors, else the core's refusal. */
  const failureText = (failure: ActionFailure, preview: PayoutPreview | undefined): string =>
    failure.fieldErrors ? Object.values(failure.fieldErrors).map(fieldText).join(' ') : fieldMessage(failure, preview);

  /** A check the preview says the payout would fail: the core's words in English, the code's in another language. */
  const refusalText = (r: PayoutRefusal, preview: PayoutPreview): string => {
    if (locale === 'en') return r.message;
    if (r.code === 'payout_request_failed' && r.field === 'bank_slug') return t('errors.bankCurrency', { currency: preview.currency });
    if (r.field === 'merchant_id') return t('errors.merchantNotFound');
    if (r.code === 'card_disabled') return t('errors.sourceDisabled');
    return fieldMessage(r, preview);
  };

  /** Why a destination card cannot receive. */
  const recipientReason = (r: RecipientPreview): string | null => {
    if (!r.refusal || locale === 'en') return r.reason;
    const { code, sourceCurrency } = r.refusal;
    if (code === 'currency_mismatch') return t('recipient.currencyMismatch', { currency: r.currency, source: sourceCurrency ?? '' });
    if (code === 'cancelled') return t('recipient.cancelled');
    if (code === 'disabled') return t('recipient.disabled');
    return t('errors.sameCard');
  };

  return { fieldMessage, failureText, refusalText, recipientReason };
}
