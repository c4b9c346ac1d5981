import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import type { Currency, Mode } from '../validation';

export interface CardRow {
  id: number;
  ref_id: string;
  business_id: number;
  mode: Mode;
  customer_id: number;
  card_number: string;
  currency: Currency;
  status: number;
  disabled_by: string | null;
  account_id: number;
  created_at: Date;
  updated_at: Date;
  cancelled_at: Date | null;
  /** When the card expires (lib/cards/card-expiry.ts); null when it never does. */
  expires_at: Date | null;
  /** When the expiry sweep expired it; the card is read-only since. */
  expired_at: Date | null;
  /** The holder as the card's own business named them: null when it gave no name (the phone was known from elsewhere). */
  first_name: string | null;
  last_name: string | null;
  phone_number: string;
  email: string | null;
  balance: number;
  /** The sum of the card's open holds (lib/holds/): money set aside, no longer in balance. */
  held: number;
}

/** The gift card of SPEC.md, keys in the spec's order. */
export interface GiftCard {
  ref_id: string;
  name: string;
  card_number: string;
  currency: string;
  status: number;
  last_four: string;
  is_scoped: number;
  business_id: number;
  available_amount: number;
  held_amount: number;
  created_at: string;
  updated_at: string;
  /** Beyond SPEC.md: the last moment the card can be used; null when it never expires. */
  expires_at: string | null;
}

export function toGiftCard(row: CardRow): GiftCard {
  return {
    ref_id: row.ref_id,
    name: [row.first_name, row.last_name].filter(Boolean).join(' '),
    card_number: row.card_number,
    currency: row.currency,
    status: row.status,
    last_four: row.card_number.slice(-4),
    is_scoped: 1,
    business_id: row.business_id,
    available_amount: Number(row.balance),
    held_amount: Number(row.held),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    expires_at: row.expires_at ? new Date(row.expires_at).toISOString() : null,
  };
}

const cardSelect = (source: SQL) => sql`
  SELECT c.id, c.ref_id, c.business_id, c.mode, c.customer_id, c.card_number, c.currency, c.status, c.disabled_by,
         c.account_id, c.created_at, c.updated_at, c.cancelled_at, c.expires_at, c.expired_at,
         n.first_name, n.last_name, cu.phone_number, n.email, a.balance,
         coalesce((SELECT sum(h.amount) FROM holds h WHERE h.card_id = c.id AND h.status = 'open'), 0)::bigint AS held
  FROM ${source} c
  JOIN customers cu ON cu.id = c.customer_id
  LEFT JOIN customer_names n ON n.business_id = c.business_id AND n.customer_id = c.customer_id
  JOIN ledger_accounts a ON a.id = c.account_id`;

export async function selectCards(db: DbOrTx, where: SQL, tail: SQL = sql``): Promise<CardRow[]> {
  const result = await db.execute<CardRow & Record<string, unknown>>(sql`${cardSelect(sql`cards`)} WHERE ${where} ${tail}`);
  return result.rows;
}

const NEWEST_FIRST = sql`ORDER BY c.created_at DESC, c.id DESC`;

/**
 * One page of cards, newest first. The page is cut from the cards index before
 * joining holder and balance, so its cost does not grow with the business's card count.
 */
export async function selectCardPage(db: DbOrTx, where: SQL, limit: number, offset: number): Promise<CardRow[]> {
  const page = sql`(SELECT * FROM cards c WHERE ${where} ${NEWEST_FIRST} LIMIT ${limit} OFFSET ${offset})`;
  const result = await db.execute<CardRow & Record<string, unknown>>(sql`${cardSelect(page)} ${NEWEST_FIRST}`);
  return result.rows;
}

/** A live (not cancelled) card of this business and mode, or undefined. */
export async function findOwnCard(db: DbOrTx, businessId: number, mode: Mode, cardNumber: string, lock = false) {
  const [row] = await selectCards(
    db,
    sql`c.business_id = ${businessId} AND c.mode = ${mode} AND c.card_number = ${cardNumber} AND c.cancelled_at IS NULL`,
    lock ? sql`FOR UPDATE OF c` : sql``,
  );
  return row;
}

/** The live cards of this business and mode among these numbers, in no particular order: one round trip for a batch. */
export async function findOwnCards(db: DbOrTx, businessId: number, mode: Mode, cardNumbers: string[]): Promise<CardRow[]> {
  if (cardNumbers.length === 0) return [];
  return selectCards(
    db,
    sql`c.business_id = ${businessId} AND c.mode = ${mode} AND c.card_number = ANY(${`{${cardNumbers.join(',')}}`}::text[]) AND c.cancelled_at IS NULL`,
  );
}

/**
 * A card of this business and mode whether live or cancelled, or undefined: for the
 * dashboard, where a cancelled card stays findable and opens read-only. The API never
 * uses it (SPEC.md: a cancelled card is gone from the API).
 */
export async function findOwnCardAnyState(db: DbOrTx, businessId: number, mode: Mode, cardNumber: string) {
  const [row] = await selectCards(db, sql`c.business_id = ${businessId} AND c.mode = ${mode} AND c.card_number = ${cardNumber}`);
  return row;
}
