import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { zonedDayStart } from '../time-zone';
import type { Currency } from '../validation';
import { asOfDay, type CurrencyLiability, type LiabilityOptions, type LiabilityReport } from './liability/definitions';
import { reportRead } from './report-range';

/**
 * Ledger transactions that put new value onto a card from outside the card
 * programme: a settled ledger top-up, a paid payment (hosted or wallet), and
 * the tests' direct funding. Card-to-card transfers between the business's own
 * cards move value already loaded (counting them would count the same money
 * twice), and a failed payout's reversal gives back value that was loaded
 * before. Card-to-card across businesses is counted apart (see valueLoaded).
 */
const LOAD_KINDS = ['transfer_settlement', 'payment', 'test_funding'] as const;

/** The calendar day `days` before `day` (YYYY-MM-DD). */
export function daysBefore(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d - days)).toISOString().slice(0, 10);
}

/**
 * The day the dormancy window opens: a movement before it is more than
 * dormantDays before the as-of day, so value loaded before it has had the whole
 * window to be spent.
 */
export const windowStartDay = (day: string, dormantDays: number) => daysBefore(day, dormantDays);

export interface LoadedValue {
  currency: Currency;
  /**
   * Value loaded onto the business's cards before the window opened: LOAD_KINDS credits and card-to-card received
   * from other businesses' cards, less what its cards sent card-to-card to other businesses' cards.
   */
  loadedBefore: number;
  /** The first load up to the as-of day, if any. */
  firstLoadAt: Date | null;
}

/**
 * Value loaded onto the business's cards per currency, before the window, and the first load up to the day's end.
 * A card-to-card payout from another business's card is new value to this business (a load); one to another
 * business's card takes the whole debit out of it, so it is subtracted: then the cards' total balance when the
 * window opens is never more than loadedBefore, and the dormant balance (held since then) never more either.
 */
async function valueLoaded(db: DbOrTx, opts: LiabilityOptions): Promise<LoadedValue[]> {
  const asOf = asOfDay(opts.day, opts.timeZone, opts.at);
  const windowStart = zonedDayStart(windowStartDay(opts.day, opts.dormantDays), opts.timeZone);
  const kinds = sql.join(
    LOAD_KINDS.map((k) => sql`${k}`),
    sql`, `,
  );
  const result = await reportRead(db, (tx) =>
    tx.execute<{ currency: Currency; loaded_before: number; first_load: Date | string | null }>(sql`
    SELECT c.currency,
           coalesce(sum(e.amount) FILTER (WHERE e.created_at < ${windowStart.toISOString()}::timestamptz), 0)::bigint AS loaded_before,
           min(e.created_at) FILTER (WHERE e.amount > 0) AS first_load
    FROM cards c
    JOIN ledger_entries e ON e.account_id = c.account_id
    JOIN ledger_transactions t ON t.id = e.transaction_id
    WHERE c.business_id = ${opts.businessId} AND c.mode = ${opts.mode} AND e.created_at < ${asOf.end.toISOString()}::timestamptz
      AND CASE
        WHEN t.kind IN (${kinds}) THEN e.amount > 0
        WHEN t.kind <> 'payout_card_to_card' THEN false
        WHEN t.business_id IS DISTINCT FROM ${opts.businessId} THEN e.amount > 0
        ELSE e.amount < 0 AND NOT EXISTS (
          SELECT 1 FROM ledger_entries o JOIN cards oc ON oc.account_id = o.account_id
          WHERE o.transaction_id = t.id AND o.amount > 0 AND oc.business_id = ${opts.businessId})
      END
    GROUP BY c.currency`),
  );
  return result.rows.map((r) => ({
    currency: r.currency,
    loadedBefore: Number(r.loaded_before),
    firstLoadAt: r.first_load ? new Date(r.first_load) : null,
  }));
}

export interface BreakageEstimate {
  currency: Currency;
  /** Value loaded before this day (in the business's zone) is the cohort measured. */
  windowStartDay: string;
  dormantDays: number;
  loadedBefore: number;
  /** What cards dormant for more than dormantDays still hold at the day's end. */
  dormantBalance: number;
  /** The liability at the day's end the rate is applied to. */
  liability: number;
  firstLoadAt: Date | null;
  /** null when the history is too short: no value was loaded before the window opened. */
  rate: { unspent: number; loaded: number } | null;
  /** The rate applied to the liability, in minor units rounded half up; null with the rate. */
  expected: number | null;
}

/**
 * Breakage from the business's own history. Of the value loaded onto its
 * cards before the dormancy window opened (more than N days before the as-of
 * day), the share still sitting on cards with no movement in over N days is
 * taken as never to be spent: rate = dormant balance / value loaded before
 * the window. Value loaded counts card-to-card received from other
 * businesses' cards and subtracts card-to-card sent to them (valueLoaded), so
 * every dormant card's money is part of it and the rate runs from 0 to 1. Applied to the whole liability at the day's
 * end, it gives the breakage to expect. No value loaded before the window, no
 * estimate.
 */
export function estimateBreakage(
  report: Pick<LiabilityReport, 'asOf' | 'dormantDays'> & { currencies: CurrencyLiability[] },
  loads: LoadedValue[],
): BreakageEstimate[] {
  const start = windowStartDay(report.asOf.day, report.dormantDays);
  const byCurrency = new Map(loads.map((l) => [l.currency, l]));
  const currencies = new Set<Currency>([...report.currencies.map((c) => c.currency), ...loads.map((l) => l.currency)]);
  return [...currencies].map((currency) => {
    const liability = report.currencies.find((c) => c.currency === currency);
    const load = byCurrency.get(currency);
    const loaded = load?.loadedBefore ?? 0;
    const dormant = liability?.dormantBalance ?? 0;
    const balance = liability?.balance ?? 0;
    const rate = loaded > 0 ? { unspent: dormant, loaded } : null;
    return {
      currency,
      windowStartDay: start,
      dormantDays: report.dormantDays,
      loadedBefore: loaded,
      dormantBalance: dormant,
      liability: balance,
      firstLoadAt: load?.firstLoadAt ?? null,
      rate,
      expected: rate ? ratioOf(balance, rate.unspent, rate.loaded) : null,
    };
  });
}

/** amount × numerator / denominator in integers, rounded half up: exact for any amount the ledger holds. */
export function ratioOf(amount: number, numerator: number, denominator: number): number {
  const n = BigInt(amount) * BigInt(numerator) * 2n + BigInt(denominator);
  return Number(n / (2n * BigInt(denominator)));
}

/** "12.3%": the rate to one decimal, rounded half up. */
export function percentText(rate: { unspent: number; loaded: number }): string {
  const tenths = ratioOf(1000, rate.unspent, rate.loaded);
  return `${Math.floor(tenths / 10)}.${tenths % 10}%`;
}

/** The liability report's breakage estimate per currency, reading the loads (the report gives the dormant balances). */
export async function breakageEstimates(db: DbOrTx, opts: LiabilityOptions, report: LiabilityReport): Promise<BreakageEstimate[]> {
  return estimateBreakage(report, await valueLoaded(db, opts));
}

export interface RecognisedBreakage {
  currency: Currency;
  /** What expired cards held when they expired, moved to the business's breakage account up to the day's end. */
  amount: number;
  cards: number;
}

/**
 * Breakage recognised, not estimated: the balances of cards that expired
 * (lib/cards/expire-cards.ts) up to the end of the as-of day. An expired card
 * owes nothing, so this money has left the liability for good.
 */
export async function recognisedBreakage(db: DbOrTx, opts: LiabilityOptions): Promise<RecognisedBreakage[]> {
  const asOf = asOfDay(opts.day, opts.timeZone, opts.at);
  const result = await reportRead(db, (tx) =>
    tx.execute<{ currency: Currency; amount: number; cards: number }>(sql`
    SELECT a.currency, sum(e.amount)::bigint AS amount, count(*)::int AS cards
    FROM ledger_accounts a
    JOIN ledger_entries e ON e.account_id = a.id
    JOIN ledger_transactions t ON t.id = e.transaction_id AND t.kind = 'card_expiry'
    WHERE a.kind = 'breakage' AND a.business_id = ${opts.businessId} AND a.mode = ${opts.mode}
      AND e.created_at < ${asOf.end.toISOString()}::timestamptz
    GROUP BY a.currency ORDER BY a.currency`),
  );
  return result.rows.map((r) => ({ currency: r.currency, amount: Number(r.amount), cards: Number(r.cards) }));
}
