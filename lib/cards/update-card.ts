import type { Actor } from '../actor';
import type { Db } from '../db/client';
import { ServiceError } from '../errors';
import type { Mode } from '../validation';
import type { GiftCard } from './card-view';
import { correctCardPhone } from './correct-card-phone';
import { setCardStatus } from './set-card-status';

export interface UpdateCardOptions {
  businessId: number;
  mode: Mode;
  cardNumber: string;
  actor: Actor;
  input: unknown;
}

const ONE_CHANGE = 'Send status or phone_number, not both.';

/**
 * PATCH /card/{card_number}: a body with phone_number corrects the number, anything else is SPEC.md's enable or
 * disable (so `{}` is still "status is required"). One change per request: both at once change nothing.
 */
export async function updateCard(db: Db, opts: UpdateCardOptions): Promise<{ card: GiftCard; message: string }> {
  const body = opts.input;
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && 'phone_number' in body) {
    if ('status' in body) throw new ServiceError('validation_error', { status: ONE_CHANGE, phone_number: ONE_CHANGE });
    return { card: await correctCardPhone(db, opts), message: 'Gift card phone number corrected successfully' };
  }
  const { card, action } = await setCardStatus(db, opts);
  return { card, message: `Gift card ${action}d successfully` };
}
