import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import type { DbOrTx } from '../db/client';
import { counterIncrement } from '../db/list-counters';
import { compiledOnce, runCompiled } from '../db/prepared';
import { ServiceError } from '../errors';
import { newCardNumber } from '../ids';
import type { Currency, Mode } from '../validation';

const P = sql.placeholder;

/**
 * A new card in one statement: finds the customer by phone (or creates one,
 * only with a first name), refuses a second live card of the currency, names
 * the customer for this business unless it already did, and writes the card's
 * account, the card, its list total and its audit line. A refusal writes
 * nothing, so a batch needs no savepoint for it; the snapshot cannot see a
 * card another transaction commits meanwhile, and the unique indexes catch
 * that race (the caller maps the constraint).
 */
const cardStatement = compiledOnce(
  () => sql`
    WITH found AS (
      SELECT id FROM customers WHERE phone_number = ${P('phone')} AND mode = ${P('mode')}
    ), made AS (
      INSERT INTO customers (mode, phone_number, national_number)
      SELECT ${P('mode')}, ${P('phone')}, ${P('national')}
      WHERE NOT EXISTS (SELECT 1 FROM found) AND ${P('firstName')}::text IS NOT NULL
      RETURNING id
    ), customer AS (
      SELECT id FROM found UNION ALL SELECT id FROM made
    ), taken AS (
      SELECT 1 FROM cards c JOIN customer cu ON cu.id = c.customer_id
      WHERE c.business_id = ${P('businessId')} AND c.mode = ${P('mode')} AND c.currency = ${P('currency')} AND c.cancelled_at IS NULL
    ), go AS (
      SELECT id FROM customer WHERE NOT EXISTS (SELECT 1 FROM taken)
    ), named AS (
      INSERT INTO customer_names (business_id, customer_id, first_name, last_name)
      SELECT ${P('businessId')}, id, ${P('firstName')}::text, ${P('lastName')}::text FROM go
      WHERE ${P('firstName')}::text IS NOT NULL OR ${P('lastName')}::text IS NOT NULL
      ON CONFLICT (business_id, customer_id) DO NOTHING
    ), account AS (
      INSERT INTO ledger_accounts (kind, name, business_id, mode, currency)
      SELECT 'card', 'card:' || ${P('cardNumber')}::text, ${P('businessId')}, ${P('mode')}, ${P('currency')} FROM go
      RETURNING id
    ), card AS (
      INSERT INTO cards (ref_id, business_id, mode, customer_id, card_number, currency, account_id, expires_at)
      SELECT ${P('refId')}, ${P('businessId')}, ${P('mode')}, go.id, ${P('cardNumber')}, ${P('currency')}, account.id, ${P('expiresAt')}::timestamptz FROM go, account
      RETURNING id
    ), counted AS (
      ${counterIncrement('cards', 'card')}
    ), audited AS (
      INSERT INTO audit_log (business_id, mode, actor_type, actor_id, action, target)
      SELECT ${P('businessId')}, ${P('mode')}, ${P('actorType')}, ${P('actorId')}::text, 'card.created', ${P('cardNumber')} FROM card
    )
    SELECT EXISTS (SELECT 1 FROM customer) AS customer, EXISTS (SELECT 1 FROM taken) AS taken, EXISTS (SELECT 1 FROM card) AS made`,
);

export interface WriteCardOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  phone: { e164: string; national: string };
  currency: Currency;
  firstName?: string;
  lastName?: string;
  /** The business's expiry policy applied at issue (lib/cards/card-expiry.ts); null: never. */
  expiresAt: Date | null;
}

/** Writes a card (cardStatement) and answers its number, or throws the refusal: nothing is written then. */
export async function writeCard(db: DbOrTx, o: WriteCardOptions): Promise<string> {
  const cardNumber = newCardNumber();
  const { rows } = await runCompiled<{ customer: boolean; taken: boolean; made: boolean }>(db, cardStatement(), {
    phone: o.phone.e164,
    national: o.phone.national,
    mode: o.mode,
    businessId: o.businessId,
    currency: o.currency,
    firstName: o.firstName ?? null,
    lastName: o.lastName ?? null,
    cardNumber,
    expiresAt: o.expiresAt?.toISOString() ?? null,
    refId: randomUUID(),
    actorType: o.actor.type,
    actorId: o.actor.id,
  });
  const verdict = rows[0];
  if (verdict.made) return cardNumber;
  if (verdict.taken) throw new ServiceError('card_exists', `This customer already has a ${o.currency} gift card with this business.`);
  throw new ServiceError('user_not_found', `No customer has this phone number in ${o.mode} mode yet: send first_name to create one.`);
}
