import { sql } from 'drizzle-orm';
import { extendExpirySchema } from './expiry.validation';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import { getBusinessExpiry } from '../business/expiry-policy';
import { dayIn } from '../time-zone';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import { cardNotFound, ServiceError } from '../errors';
import { parseInput, type Mode } from '../validation';
import { announceCardChange } from './announce-card';
import { endOfLocalDay } from './card-expiry';
import { findOwnCard } from './card-view';

const MAX_EXTENSION_MS = 10 * 366 * 86_400_000;

export interface ExtendCardExpiryOptions {
  businessId: number;
  mode: Mode;
  cardNumber: string;
  actor: Actor;
  /** expires_on (a day in the business's time zone) and reason. */
  input: unknown;
}

/**
 * Support or finance give a card more time: it then expires at the end of
 * `expires_on` in the business's time zone, which must be later than its
 * current expiry. Audited with the reason. An expired card is not revived
 * (its balance is already breakage), and a card that never expires has
 * nothing to extend.
 */
export async function extendCardExpiry(db: Db, opts: ExtendCardExpiryOptions): Promise<{ expiresAt: Date }> {
  const input = parseInput(extendExpirySchema.omit({ card_number: true }), opts.input);
  const { timeZone } = await getBusinessExpiry(db, opts.businessId);
  // A card's life is counted in months: ten years ahead is past any policy, and keeps the date arithmetic in range.
  if (input.expires_on > dayIn(timeZone, new Date(Date.now() + MAX_EXTENSION_MS))) {
    throw new ServiceError('validation_error', { expires_on: 'Choose a day at most ten years from today.' });
  }
  const expiresAt = endOfLocalDay(input.expires_on, timeZone);
  const cardNumber = await inTransaction(db, async (tx) => {
    const card = await findOwnCard(tx, opts.businessId, opts.mode, opts.cardNumber.trim(), true);
    if (!card) throw cardNotFound();
    if (card.expired_at) throw new ServiceError('card_disabled', 'This gift card has expired; its balance went to breakage and it cannot be extended.');
    if (!card.expires_at) throw new ServiceError('validation_error', { expires_on: 'This card never expires: there is nothing to extend.' });
    const current = new Date(card.expires_at);
    if (expiresAt.getTime() <= current.getTime()) {
      throw new ServiceError('validation_error', { expires_on: `Choose a day after the current expiry, ${dayIn(timeZone, current)}.` });
    }
    await tx.execute(sql`UPDATE cards SET expires_at = ${expiresAt.toISOString()}::timestamptz, updated_at = now() WHERE id = ${card.id}`);
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: opts.mode,
      actor: opts.actor,
      action: 'card.expiry_extended',
      target: card.card_number,
      details: { from: current.toISOString(), to: expiresAt.toISOString(), reason: input.reason },
    });
    return card.card_number;
  });
  announceCardChange(db, opts.businessId, opts.mode, 'card.updated', cardNumber);
  return { expiresAt };
}
