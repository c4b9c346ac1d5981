import type { ActionFailure } from '@/lib/actions/define-action';
import { failureOf } from '@/components/payouts/action-result';

/** The form's fields in the order they appear: the first with an error gets the focus. */
export const FIELD_ORDER = ['type', 'card_number', 'amount', 'merchant_reference', 'payment_method', 'phone_number'] as const;

const CARD_NOT_FOUND = 'No card of your business has this number in this mode.';
const CARD_DISABLED = 'This card is disabled; enable it before taking a payment for it.';

/** A core refusal in the form's words, chosen by its code; the core's own sentence otherwise. */
export function fieldMessage(failure: ActionFailure): string {
  switch (failure.code) {
    case 'card_not_found':
      return CARD_NOT_FOUND;
    case 'card_disabled':
      return CARD_DISABLED;
    case 'duplicate_merchant_reference':
      return 'Another payment already has this order reference; use a new one or leave it empty.';
    default:
      return failure.message;
  }
}

/** Under the card number: why the card looked up cannot take a payment, or what to type. */
export function cardHint(card: { error: unknown; data?: { active: boolean } }): string {
  if (card.error) {
    const failure = failureOf(card.error);
    return failure.code === 'card_not_found' ? CARD_NOT_FOUND : failure.message;
  }
  if (card.data && !card.data.active) return CARD_DISABLED;
  return 'One of your cards; spaces and dashes are fine.';
}
