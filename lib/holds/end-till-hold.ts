import { ServiceError } from '../errors';
import { holdStatus, type TillHoldRow } from './till-hold-view';

export const holdExpired = () => new ServiceError('hold_expired', 'The hold expired; its money is (or is being) released to the card.');

export type HoldEnding = 'capture' | 'void';

/**
 * What a capture or void answers when its claim found the hold already ended
 * (or, for a capture, expired or worth less): the same success when it is the
 * same operation repeated (null: answer the hold as it is), 409 when another
 * ending won.
 */
export function endedHoldRefusal(row: TillHoldRow, ending: HoldEnding, capturedAmount?: number): ServiceError | null {
  const status = holdStatus(row);
  if (ending === 'capture' && status === 'captured' && Number(row.captured_amount) === capturedAmount) return null;
  if (ending === 'void' && status === 'voided') return null;
  if (status === 'captured') {
    return new ServiceError('hold_captured', `The hold was already captured (${Number(row.captured_amount)} minor units).`);
  }
  if (status === 'voided') return new ServiceError('hold_voided', 'The hold was already voided; its money is back on the card.');
  if (status === 'expired' || new Date(row.expires_at) <= new Date()) return holdExpired();
  if (capturedAmount !== undefined && capturedAmount > Number(row.amount)) {
    return new ServiceError('validation_error', { amount: `amount must be at most the ${Number(row.amount)} minor units held.` }, { field: 'amount' });
  }
  return null;
}
