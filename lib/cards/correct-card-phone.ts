import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db, DbOrTx } from '../db/client';
import { inTransaction, pgConstraint } from '../db/transaction';
import { ServiceError } from '../errors';
import { parseInput, type Mode } from '../validation';
import { announceCardChange } from './announce-card';
import { endCardLinks } from './card-links';
import { findOwnCard, toGiftCard, type GiftCard } from './card-view';
import { CARD_TAKEN_MEANWHILE } from './create-card';
import { requireOwnCard } from './get-card';
import { maskPhone, normalisePhone } from './phone';

export const cardPhoneSchema = z.object({
  phone_number: z
    .string({ error: (iss) => (iss.input === undefined ? 'phone_number is required.' : 'phone_number must be a string.') })
    .max(32, { error: 'phone_number is too long.' }),
});

export interface CorrectCardPhoneOptions {
  businessId: number;
  mode: Mode;
  cardNumber: string;
  actor: Actor;
  input: unknown;
}

/** What a correction changed, for whoever tells the holder (the card's messages, when it has them). */
interface CardMovedToPhone {
  businessId: number;
  mode: Mode;
  cardId: number;
  cardNumber: string;
  from: string;
  to: string;
}

/**
 * Moves a card to a corrected phone number: the customer of that number (found, or made without a name),
 * named for this business as the card's holder was unless the business already named them. One live card per
 * customer, currency and business still holds. The card's link ends: it was sent to the wrong number.
 */
export async function correctCardPhone(db: Db, opts: CorrectCardPhoneOptions): Promise<GiftCard> {
  const input = parseInput(cardPhoneSchema, opts.input);
  const phone = normalisePhone(input.phone_number);
  let moved: CardMovedToPhone | null;
  try {
    moved = await inTransaction(db, (tx) => moveCard(tx, opts, phone));
  } catch (err) {
    if (pgConstraint(err) === CARD_TAKEN_MEANWHILE) throw cardTaken();
    throw err;
  }
  if (moved) {
    announceCardChange(db, opts.businessId, opts.mode, 'card.updated', moved.cardNumber);
    await cardMovedToPhone(db, moved);
  }
  return toGiftCard((await findOwnCard(db, opts.businessId, opts.mode, opts.cardNumber.trim()))!);
}

const cardTaken = () => new ServiceError('card_exists', 'The corrected phone number already has a gift card of this currency with this business.');

async function moveCard(tx: DbOrTx, opts: CorrectCardPhoneOptions, phone: { e164: string; national: string }): Promise<CardMovedToPhone | null> {
  const card = await requireOwnCard(tx, opts.businessId, opts.mode, opts.cardNumber, true);
  if (card.phone_number === phone.e164) return null;
  const { rows } = await tx.execute<{ id: number }>(sql`
    WITH found AS (SELECT id FROM customers WHERE phone_number = ${phone.e164} AND mode = ${opts.mode}),
    made AS (
      INSERT INTO customers (mode, phone_number, national_number)
      SELECT ${opts.mode}, ${phone.e164}, ${phone.national} WHERE NOT EXISTS (SELECT 1 FROM found)
      ON CONFLICT (phone_number, mode) DO NOTHING
      RETURNING id)
    SELECT id FROM found UNION ALL SELECT id FROM made`);
  // A concurrent first sight of the number made it meanwhile: it is there now.
  const customerId = Number(
    rows[0]?.id ?? (await tx.execute<{ id: number }>(sql`SELECT id FROM customers WHERE phone_number = ${phone.e164} AND mode = ${opts.mode}`)).rows[0].id,
  );
  const taken = await tx.execute(sql`
    SELECT 1 FROM cards WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND currency = ${card.currency}
      AND customer_id = ${customerId} AND cancelled_at IS NULL`);
  if (taken.rows.length > 0) throw cardTaken();
  await tx.execute(sql`
    INSERT INTO customer_names (business_id, customer_id, first_name, last_name, email)
    SELECT business_id, ${customerId}, first_name, last_name, email FROM customer_names
     WHERE business_id = ${opts.businessId} AND customer_id = ${card.customer_id}
    ON CONFLICT (business_id, customer_id) DO NOTHING`);
  await tx.execute(sql`UPDATE cards SET customer_id = ${customerId}, updated_at = now() WHERE id = ${card.id}`);
  await endCardLinks(tx, card.id);
  await recordAudit(tx, {
    businessId: opts.businessId,
    mode: opts.mode,
    actor: opts.actor,
    action: 'card.phone_corrected',
    target: card.card_number,
    details: { from: maskPhone(card.phone_number), to: maskPhone(phone.e164) },
  });
  return { businessId: opts.businessId, mode: opts.mode, cardId: card.id, cardNumber: card.card_number, from: card.phone_number, to: phone.e164 };
}

/**
 * After a correction has committed: where the card's messages send it to the new number, when the card has
 * them turned on (`notify`). Nothing sends messages yet; the cardholder-messages work fills this in.
 */
async function cardMovedToPhone(_db: Db, _moved: CardMovedToPhone): Promise<void> {}
