import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors';
import type { Currency, Mode } from '../validation';

export type TillHoldStatus = 'held' | 'captured' | 'voided' | 'expired';

export interface TillHoldRow {
  id: number;
  reference: string;
  business_id: number;
  mode: Mode;
  currency: Currency;
  card_id: number;
  card_number: string;
  amount: number;
  status: 'open' | 'released';
  outcome: 'captured' | 'voided' | 'expired' | null;
  captured_amount: number | null;
  capture_fee: number | null;
  merchant_reference: string | null;
  expires_at: Date;
  created_at: Date;
  released_at: Date | null;
  location_id: number | null;
}

/** A till's hold as the API answers it. */
export interface TillHold {
  hold_reference: string;
  status: TillHoldStatus;
  card_number: string;
  currency: string;
  amount: number;
  captured_amount: number;
  fee: number;
  merchant_reference?: string;
  expires_at: string;
  created_at: string;
  ended_at?: string;
  /** The branch it was placed at, null when none. */
  location_id: number | null;
}

export const holdStatus = (row: Pick<TillHoldRow, 'status' | 'outcome'>): TillHoldStatus => (row.status === 'open' ? 'held' : (row.outcome ?? 'voided'));

export function toTillHold(row: TillHoldRow): TillHold {
  return {
    hold_reference: row.reference,
    status: holdStatus(row),
    card_number: row.card_number,
    currency: row.currency,
    amount: Number(row.amount),
    captured_amount: Number(row.captured_amount ?? 0),
    fee: Number(row.capture_fee ?? 0),
    ...(row.merchant_reference ? { merchant_reference: row.merchant_reference } : {}),
    expires_at: new Date(row.expires_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
    ...(row.released_at ? { ended_at: new Date(row.released_at).toISOString() } : {}),
    location_id: row.location_id ?? null,
  };
}

const tillHoldSelect = sql`
  SELECT h.id, h.reference, h.business_id, h.mode, h.currency, h.card_id, c.card_number, h.amount, h.status, h.outcome,
         h.captured_amount, h.capture_fee, h.merchant_reference, h.expires_at, h.created_at, h.released_at, h.location_id
  FROM holds h JOIN cards c ON c.id = h.card_id`;

const holdNotFound = () => new ServiceError('hold_not_found', 'No hold with this reference belongs to your business.');

/** A till hold of this business and mode by its reference; another business's, the other mode's or an approval's is not found. */
export async function requireTillHold(db: DbOrTx, businessId: number, mode: Mode, reference: string): Promise<TillHoldRow> {
  const value = reference.trim();
  if (!value) throw new ServiceError('invalid_request', 'The hold reference is missing from the path.');
  const { rows } = await db.execute<TillHoldRow & Record<string, unknown>>(sql`${tillHoldSelect}
    WHERE h.reference = ${value} AND h.kind = 'till' AND h.business_id = ${businessId} AND h.mode = ${mode}`);
  if (!rows[0]) throw holdNotFound();
  return rows[0];
}

/** The hold once any transaction ending it has committed or rolled back: its row lock is waited for first. */
export async function settledTillHold(tx: DbOrTx, businessId: number, mode: Mode, reference: string): Promise<TillHoldRow> {
  await tx.execute(
    sql`SELECT id FROM holds WHERE reference = ${reference.trim()} AND kind = 'till' AND business_id = ${businessId} AND mode = ${mode} FOR UPDATE`,
  );
  return requireTillHold(tx, businessId, mode, reference);
}

/** A card's till holds, newest first (ties by id, so pages never repeat or skip one). */
export async function cardTillHolds(db: DbOrTx, cardId: number, limit = 100, offset = 0): Promise<TillHoldRow[]> {
  const { rows } = await db.execute<TillHoldRow & Record<string, unknown>>(sql`${tillHoldSelect}
    WHERE h.card_id = ${cardId} AND h.kind = 'till' ORDER BY h.created_at DESC, h.id DESC LIMIT ${limit} OFFSET ${offset}`);
  return rows;
}
