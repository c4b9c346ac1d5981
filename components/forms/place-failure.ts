import type { ActionFailure } from '@/lib/actions/define-action';
import { firstInvalid } from '@/components/payouts/action-result';

export interface FailurePlacerOptions<F extends string> {
  /** The form's fields in the order they appear: the first with an error gets the focus. */
  order: readonly F[];
  setError: (field: F, error: { message: string }) => void;
  setFocus: (field: F) => void;
  setAlert: (message: string) => void;
  /** A core refusal on one field, in the form's words. */
  fieldMessage: (failure: ActionFailure) => string;
  /** A refusal tied to no field, and a field check's sentence shown apart from its field, in the reader's language. */
  alertText?: (failure: ActionFailure) => string;
  fieldText?: (message: string) => string;
}

/**
 * Puts a refused action where the user will see it: each field error on its field (the first focused), a refusal
 * the core tied to a field on that field, anything else in the form's alert.
 */
export function failurePlacer<F extends string>({
  order,
  setError,
  setFocus,
  setAlert,
  fieldMessage,
  alertText = (f) => f.message,
  fieldText = (m) => m,
}: FailurePlacerOptions<F>) {
  const visible = new Set<string>(order);
  const focusFirst = (errors: Partial<Record<string, unknown>>) => {
    const first = firstInvalid(order, errors);
    if (first) setTimeout(() => setFocus(first), 0);
  };
  const place = (failure: ActionFailure) => {
    if (failure.fieldErrors) {
      const placed: Record<string, string> = {};
      for (const [field, message] of Object.entries(failure.fieldErrors)) {
        if (visible.has(field)) {
          setError(field as F, { message });
          placed[field] = message;
        } else setAlert(fieldText(message));
      }
      return focusFirst(placed);
    }
    if (failure.field && visible.has(failure.field)) {
      setError(failure.field as F, { message: fieldMessage(failure) });
      return focusFirst({ [failure.field]: true });
    }
    setAlert(alertText(failure));
  };
  return { focusFirst, place, isField: (field: string): field is F => visible.has(field) };
}
