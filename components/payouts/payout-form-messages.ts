import { formatMoney } from '@/components/ui/money';
import type { ActionFailure } from '@/lib/actions/define-action';
import type { PayoutPreview } from '@/lib/actions/payout-actions';

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

/** A core refusal in the form's words, chosen by its code; the core's own sentence otherwise. */
export function fieldMessage(failure: ActionFailure, preview: PayoutPreview | undefined): string {
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
export function failureText(failure: ActionFailure, preview: PayoutPreview | undefined): string {
  return failure.fieldErrors ? Object.values(failure.fieldErrors).join(' ') : fieldMessage(failure, preview);
}
