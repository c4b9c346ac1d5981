import { type Placeholder, sql, type SQL } from 'drizzle-orm';
import { postingPasses } from '../ledger/post-transaction';

/**
 * The limits as the statements that move money check them (lib/limits/): one
 * home for the SQL, referenced from the payout statement and the card credit
 * posting. Limits are minor units; null is no limit.
 */

const P = sql.placeholder;

/** The card's money held for approval (lib/holds/): out of its balance while it waits, back on it when released, so it counts. */
const heldOnCard = sql`(SELECT coalesce(sum(h.amount), 0) FROM holds h WHERE h.card_id = c.id AND h.status = 'open')`;

/**
 * Every card credited by the posting (`moves`, or another CTE of its columns id, amount and after) stays at or under
 * its own business's max_card_balance; debits are never refused.
 */
export const cardCreditsWithin = (moves = 'moves') => sql`NOT EXISTS (SELECT 1 FROM ${sql.identifier(moves)} m JOIN cards c ON c.account_id = m.id
    JOIN business_limits l ON l.business_id = c.business_id AND l.mode = c.mode AND l.currency = c.currency
    WHERE m.amount > 0 AND m.after + ${heldOnCard} > l.max_card_balance)`;

export const cardCreditsWithinLimits = cardCreditsWithin();

/** The max_card_balance a credit in `moves` passes (null when none does). */
const passedCardLimit = sql`(SELECT l.max_card_balance FROM moves m JOIN cards c ON c.account_id = m.id
    JOIN business_limits l ON l.business_id = c.business_id AND l.mode = c.mode AND l.currency = c.currency
    WHERE m.amount > 0 AND m.after + ${heldOnCard} > l.max_card_balance LIMIT 1)`;

/** The limit that refused a posting, first by rank, as `{limit, value}`; null when none did. */
function firstPassed(candidates: [string, SQL][]): SQL {
  const rows = candidates.map(([name, value], i) => sql`(${sql.raw(String(i))}, ${sql.raw(`'${name}'`)}, ${value})`);
  // Asked only of a refused posting: a payout that went through pays nothing more for it.
  return sql`CASE WHEN NOT EXISTS (SELECT 1 FROM posted) THEN (SELECT json_build_object('limit', name, 'value', value)
    FROM (VALUES ${sql.join(rows, sql`, `)}) AS x(rank, name, value) WHERE value IS NOT NULL ORDER BY rank LIMIT 1) END AS limit_exceeded`;
}

/** The card credit posting's verdict column. */
export const cardLimitVerdict = firstPassed([['max_card_balance', passedCardLimit]]);

/**
 * A payout's limits: the business's limits in the payout's mode and
 * currency; no row when it has none, which every check below reads as no limit.
 */
export const payoutLimitsCte = sql`payout_limits AS MATERIALIZED (
      SELECT max_payout, daily_payout FROM business_limits
      WHERE business_id = ${P('businessId')} AND mode = ${P('mode')} AND currency = ${P('currency')}
    )`;

/** On a row of payout_limits: a payout of `amount` is larger than max_payout allows. */
export const overMaxPayout = (amount: SQL | Placeholder) => sql`max_payout < ${amount}::bigint`;

/** The payout's business day: the business's time zone at the payout's own timestamp, so a failure later gives the amount back to the same day. */
const payoutDay = sql`(SELECT (${P('now')}::timestamptz AT TIME ZONE time_zone)::date FROM businesses WHERE id = ${P('businessId')})`;

/**
 * The day's total moves with the money: counted only when everything else
 * lets the payout through, and only while the total stays within the daily
 * limit. ON CONFLICT DO UPDATE waits for and reads the latest total, so
 * concurrent payouts of one business day pass one at a time, each seeing the
 * ones before it; the posting then goes ahead only if the total took it.
 * `amount` is the payout's, or a chunk's total moving at once (every payout
 * of which passes: lib/batches/payouts-chunk-statement.ts), whose posting's
 * `verdict` is the chunk's.
 */
export function payoutDayCount(amount: SQL | Placeholder) {
  return {
    ctes: sql`payout_day AS (
      INSERT INTO payout_day_totals AS t (business_id, mode, currency, day, total)
      SELECT ${P('businessId')}, ${P('mode')}, ${P('currency')}, ${payoutDay}, ${amount}::bigint
      FROM verdict, payout_limits pl
      WHERE ${postingPasses} AND pl.daily_payout >= ${amount}::bigint
      ON CONFLICT (business_id, mode, currency, day) DO UPDATE SET total = t.total + EXCLUDED.total
      WHERE t.total + EXCLUDED.total <= (SELECT daily_payout FROM payout_limits)
      RETURNING total
    )`,
    guard: sql`EXISTS (SELECT 1 FROM payout_day) OR NOT EXISTS (SELECT 1 FROM payout_limits WHERE daily_payout IS NOT NULL)`,
  };
}

/** The payout statement's verdict column: the payout's own size first, then the card credited, then the day. */
export const payoutLimitVerdict = firstPassed([
  ['max_payout', sql`(SELECT max_payout FROM payout_limits WHERE ${overMaxPayout(P('amount'))})`],
  ['max_card_balance', passedCardLimit],
  ['daily_payout', sql`(SELECT daily_payout FROM payout_limits WHERE NOT EXISTS (SELECT 1 FROM payout_day) AND (SELECT ${postingPasses} FROM verdict))`],
]);
