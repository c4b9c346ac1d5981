import { ServiceError } from '../errors';
import { CONFIRM_AT_MINOR } from './amount.validation';
import type { DestinationType } from './payout.validation';

/** An amount the dashboard moves only after the user has seen it in figures and in words. */
export const isLargeAmount = (minor: number): boolean => minor >= CONFIRM_AT_MINOR;

/** Card-to-card and business payouts show whom they reach and ask; any payout of a large amount asks too. */
export const payoutNeedsConfirmation = (type: DestinationType, amount: number): boolean => type !== 'bank' || isLargeAmount(amount);

/**
 * The forms ask before moving money like this; the server holds them to it, so
 * no request skips the question the form would have asked.
 */
export function requireConfirmation(needed: boolean, confirmed: boolean | undefined): void {
  if (needed && confirmed !== true) throw new ServiceError('validation_error', { confirmed: 'Confirm this in the dialog before it is sent.' });
}
