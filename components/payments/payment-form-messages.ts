import { useTranslations } from 'next-intl';
import { useErrorText } from '@/components/forms/use-error-text';
import type { ActionFailure } from '@/lib/actions/define-action';
import { failureOf } from '@/components/payouts/action-result';

/** The form's fields in the order they appear: the first with an error gets the focus. */
export const FIELD_ORDER = ['type', 'card_number', 'amount', 'merchant_reference', 'payment_method', 'phone_number'] as const;

/** The new-payment form's refusals in the reader's words, chosen by the core's code; the code's sentence otherwise. */
export function usePaymentFailureText() {
  const t = useTranslations('NewPayment');
  const errorText = useErrorText();

  const fieldMessage = (failure: Pick<ActionFailure, 'code' | 'message'>): string => {
    switch (failure.code) {
      case 'card_not_found':
        return t('errors.cardNotFound');
      case 'card_disabled':
        return t('errors.cardDisabled');
      case 'duplicate_merchant_reference':
        return t('errors.duplicateReference');
      default:
        return errorText(failure);
    }
  };

  /** Under the card number: why the card looked up cannot take a payment, or what to type. */
  const cardHint = (card: { error: unknown; data?: { active: boolean } }): string => {
    if (card.error) return fieldMessage(failureOf(card.error));
    if (card.data && !card.data.active) return t('errors.cardDisabled');
    return t('cardHint');
  };

  return { fieldMessage, cardHint, errorText };
}
