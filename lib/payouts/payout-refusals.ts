import { ServiceError } from '../errors';

/** The refusals a payout's quote and its statement share, so the preview and the payout say the same words. */
export const sourceCardDisabled = () => new ServiceError('card_disabled', 'The source gift card is disabled and cannot pay out.');
export const destinationCardNotFound = () => new ServiceError('destination_card_not_found', 'No active gift card has the destination card number.');
export const destinationCardDisabled = () => new ServiceError('destination_card_disabled', 'The destination gift card is disabled.');
export const sourceInsufficient = (field?: string) =>
  new ServiceError('insufficient_balance', 'The source card does not hold enough funds for this payout and its fee.', field ? { field } : undefined);
