import { type Placeholder, sql, type SQL } from 'drizzle-orm';
import { ACTIVE } from '../cards/card-status';
import { feeRuleUnchanged } from '../fees/fee-schedule';
import { cardCreditsWithin, overMaxPayout, payoutDayCount } from '../limits/limit-sql';

/** A payout's value by name (payoutStatementValues' names): a placeholder of the single statement, a column of `items i` in the chunk's. */
export type PayoutValue = (name: string) => SQL | Placeholder | unknown;

/**
 * One guard of a payout, in both the statements that write payouts: `single`
 * in the payout statement (lib/payouts/payout-statement.ts), over its values
 * and `moves` (each account's balance after the payout); `chunk` in the chunk
 * statement (lib/batches/payouts-chunk-statement.ts), over every row of
 * `items i` and the chunk's worst cases (`credits`: each account's balance
 * after all the chunk's credits and none of its debits), so that a chunk
 * passing it has every item pass it sent alone in order.
 */
export interface PayoutGuard {
  code: string;
  single: (v: PayoutValue) => SQL;
  chunk: (v: PayoutValue) => SQL;
}

/**
 * Both of the payout's cards (the destination only when it has one) still active: what the quote read of them still holds.
 * IN, not = ANY(array): a parameter array of unknown length made PostgreSQL plan the statement afresh on every call.
 */
const cardsActive = (v: PayoutValue) =>
  sql`(SELECT count(*) FROM cards WHERE id IN (${v('sourceCardId')}, ${v('destinationCardId')}) AND status = ${ACTIVE} AND cancelled_at IS NULL)
    = 1 + (${v('destinationCardId')}::bigint IS NOT NULL)::int`;

const feeRuleAsRead = (v: PayoutValue) => feeRuleUnchanged(sql`${v('feeKind')}`, sql`${v('feeSignature')}`);

/** `condition` holds for every item of the chunk. */
const everyItem = (condition: SQL) => sql`NOT EXISTS (SELECT 1 FROM items i WHERE (${condition}) IS NOT TRUE)`;

/**
 * Every guard of a payout, declared once with both its forms; each statement
 * ANDs the whole list (payoutGuards), so neither can leave one out. Beside
 * them both statements' postings check that every account exists, is open
 * and stays at or above zero (the chunk's on each account's balance after
 * all its debits and none of its credits: lib/ledger/post-transaction.ts),
 * and both count the day's total against daily_payout (PAYOUT_DAY_LIMIT).
 * A guard that fails refuses the single payout (payoutVerdict reads why); in
 * the chunk it sends every item to its own statement, which answers it.
 */
export const PAYOUT_GUARDS: readonly PayoutGuard[] = [
  { code: 'cards_active', single: cardsActive, chunk: (v) => everyItem(cardsActive(v)) },
  { code: 'fee_rule_unchanged', single: feeRuleAsRead, chunk: (v) => everyItem(feeRuleAsRead(v)) },
  // A key revoked on any instance stops the money at once, so the API may act on a key it remembers without reading it first.
  { code: 'api_key_usable', single: () => sql`(SELECT usable FROM actor_key)`, chunk: () => sql`(SELECT usable FROM actor_key)` },
  {
    code: 'max_payout',
    single: (v) => sql`NOT EXISTS (SELECT 1 FROM payout_limits WHERE ${overMaxPayout(sql`${v('amount')}`)})`,
    chunk: (v) => sql`NOT EXISTS (SELECT 1 FROM payout_limits, items i WHERE ${overMaxPayout(sql`${v('amount')}`)})`,
  },
  // The chunk's worst case for a card it credits: every credit of the chunk on it, none of its debits (which may come after).
  { code: 'max_card_balance', single: () => cardCreditsWithin('moves'), chunk: () => cardCreditsWithin('credits') },
];

/** The statement's guard: every guard of the list in its `form`, over the values `v` names. */
export function payoutGuards(form: 'single' | 'chunk', v: PayoutValue): SQL {
  return sql.join(
    PAYOUT_GUARDS.map((g) => sql`(${g[form](v)})`),
    sql`
    AND `,
  );
}

/** The day's total against daily_payout: the payout's amount, or the chunk's sum at once (each item passes it in order when the sum does). */
export const PAYOUT_DAY_LIMIT = {
  single: (v: PayoutValue) => payoutDayCount(sql`${v('amount')}`),
  chunk: () => payoutDayCount(sql`(SELECT sum(amount) FROM items)`),
};
