import { type SQL, sql } from 'drizzle-orm';
import { type CardRow, selectCards } from '../cards/card-view';
import { checkCardNumberParam } from '../cards/get-card';
import { normaliseTypedPhone } from '../cards/phone';
import type { DbOrTx } from '../db/client';
import { cardNotFound } from '../errors';
import { cardTillHolds, type TillHold, toTillHold } from '../holds/till-hold-view';
import { nextDay, zonedDayStart } from '../time-zone';
import type { Mode } from '../validation';

export interface TillCard {
  card_number: string;
  currency: string;
  status: number;
  name: string;
  available_amount: number;
  held_amount: number;
  holds: TillHold[];
}

/** A scanner types the card number (the card page's QR holds it); a person types it or the holder's phone. */
const looksLikeCardNumber = (text: string) => /^\d{16}$/.test(text.replace(/[\s-]/g, ''));

/**
 * The live cards a till's one field finds in this business and mode: the card of a card number, or the
 * cards of a phone number (one per currency at most). Nothing found is the card's 404.
 */
export async function findTillCards(db: DbOrTx, opts: { businessId: number; mode: Mode; country: string; query: string }): Promise<TillCard[]> {
  const text = opts.query.trim();
  const own = sql`c.business_id = ${opts.businessId} AND c.mode = ${opts.mode} AND c.cancelled_at IS NULL`;
  let rows: CardRow[];
  if (looksLikeCardNumber(text)) {
    rows = await selectCards(db, sql`${own} AND c.card_number = ${checkCardNumberParam(text.replace(/[\s-]/g, ''))}`);
  } else {
    const phone = normaliseTypedPhone(text, opts.country).e164;
    rows = await selectCards(db, sql`${own} AND cu.phone_number = ${phone}`, sql`ORDER BY c.created_at`);
  }
  if (rows.length === 0) throw cardNotFound();
  return Promise.all(
    rows.map(async (row) => ({
      card_number: row.card_number,
      currency: row.currency,
      status: row.status,
      name: [row.first_name, row.last_name].filter(Boolean).join(' '),
      available_amount: Number(row.balance),
      held_amount: Number(row.held),
      holds: (await cardTillHolds(db, row.id, 10)).map(toTillHold).filter((h) => h.status === 'held'),
    })),
  );
}

export interface TillReportRow {
  /** The user who redeemed (null: an API key or the system). */
  user_id: number | null;
  email: string | null;
  location_id: number | null;
  currency: string;
  count: number;
  total: number;
  voids: number;
}

export interface TillReportOptions {
  businessId: number;
  mode: Mode;
  /** The business's calendar day, YYYY-MM-DD, read in its zone. */
  day: string;
  timeZone: string;
  /** One branch only; undefined is every branch (and none). */
  locationId?: number;
  /** One person's own report (a cashier's). */
  userId?: number;
}

/**
 * A day's till figures by person, branch and currency: redemptions (a capture is one) counted and summed from
 * the ledger's card_redemption transactions (what left the cards), and voided holds counted by who voided them.
 */
export async function tillReport(db: DbOrTx, opts: TillReportOptions): Promise<TillReportRow[]> {
  const from = zonedDayStart(opts.day, opts.timeZone);
  const to = zonedDayStart(nextDay(opts.day), opts.timeZone);
  // The same filter on the transaction aliased `t` in both parts; the branch is the redemption's, or the voided hold's.
  const where = sql`t.business_id = ${opts.businessId} AND t.mode = ${opts.mode} AND t.created_at >= ${from} AND t.created_at < ${to}
    ${opts.userId !== undefined ? sql`AND t.actor_type = 'user' AND t.actor_id = ${String(opts.userId)}` : sql``}`;
  const at = (column: SQL) => (opts.locationId !== undefined ? sql`AND ${column} = ${opts.locationId}` : sql``);
  const { rows } = await db.execute<TillReportRow & Record<string, unknown>>(sql`
    WITH spent AS (
      SELECT t.actor_type, t.actor_id, t.location_id, e.currency, count(DISTINCT t.id)::int AS count, sum(e.amount)::bigint AS total
      FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id AND e.amount > 0
      WHERE t.kind = 'card_redemption' AND ${where} ${at(sql`t.location_id`)}
      GROUP BY 1, 2, 3, 4
    ), voided AS (
      SELECT t.actor_type, t.actor_id, h.location_id, h.currency, count(*)::int AS voids
      FROM holds h JOIN ledger_transactions t ON t.id = h.release_transaction_id
      WHERE h.kind = 'till' AND h.outcome = 'voided' AND ${where} ${at(sql`h.location_id`)}
      GROUP BY 1, 2, 3, 4
    )
    SELECT CASE WHEN k.actor_type = 'user' THEN k.actor_id::int END AS user_id, u.email, k.location_id, k.currency,
           coalesce(s.count, 0) AS count, coalesce(s.total, 0)::bigint AS total, coalesce(v.voids, 0) AS voids
    FROM (SELECT actor_type, actor_id, location_id, currency FROM spent UNION SELECT actor_type, actor_id, location_id, currency FROM voided) k
    LEFT JOIN spent s ON s.actor_type = k.actor_type AND s.actor_id IS NOT DISTINCT FROM k.actor_id AND s.location_id IS NOT DISTINCT FROM k.location_id AND s.currency = k.currency
    LEFT JOIN voided v ON v.actor_type = k.actor_type AND v.actor_id IS NOT DISTINCT FROM k.actor_id AND v.location_id IS NOT DISTINCT FROM k.location_id AND v.currency = k.currency
    LEFT JOIN users u ON k.actor_type = 'user' AND u.id = k.actor_id::int AND u.business_id = ${opts.businessId}
    ORDER BY u.email NULLS LAST, k.location_id NULLS LAST, k.currency`);
  return rows.map((r) => ({ ...r, count: Number(r.count), total: Number(r.total), voids: Number(r.voids) }));
}
