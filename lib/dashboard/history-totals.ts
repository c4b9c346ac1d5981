import { and, eq, gt, gte, lt, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { historyFolds, historyTotals, payments, payouts } from '../db/schema';
import type { Mode } from '../validation';
import { foldedThrough, type HistoryList } from './history-totals-fold';
import { paymentFilterConditions, type PaymentFilters } from './search-payments';
import { payoutFilterConditions, type PayoutFilters } from './search-payouts';
import { paymentNetSql, payoutNetSql } from './net-amount';
import { nextDay, zonedDayStart } from '../time-zone';

/** The count and sums of one currency's rows, in minor units. */
interface CurrencyTotals {
  currency: string;
  count: number;
  amount: number;
  fee: number;
  net: number;
}

/** What a filtered list holds: its count, and its sums per currency (largest count first). */
export interface HistoryTotals {
  count: number;
  currencies: CurrencyTotals[];
}

export interface HistoryTotalsOptions<F> {
  businessId: number;
  mode: Mode;
  /** The business's zone: the from/to days of the filters are its calendar days. */
  timeZone: string;
  filters: F;
}

type Grain = 'hour' | 'day' | 'month';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function floorTo(t: Date, grain: Grain): Date {
  if (grain === 'month') return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
  const unit = grain === 'hour' ? HOUR : DAY;
  return new Date(Math.floor(t.getTime() / unit) * unit);
}

function ceilTo(t: Date, grain: Grain): Date {
  const f = floorTo(t, grain);
  if (f.getTime() === t.getTime()) return f;
  return grain === 'month' ? new Date(Date.UTC(f.getUTCFullYear(), f.getUTCMonth() + 1, 1)) : new Date(f.getTime() + (grain === 'hour' ? HOUR : DAY));
}

/** A half-open span [from, to); null is unbounded on that side. */
export type Span = readonly [Date | null, Date | null];

export interface TotalsPlan {
  /** Spans shorter than an hour at the edges, summed from the rows themselves. */
  rows: Span[];
  /** Whole UTC months, days and hours, read from the rollup. */
  buckets: { grain: Grain; span: Span }[];
  /** The whole hours the buckets cover together; null when there are no buckets. */
  covered: Span | null;
}

/**
 * Cuts [start, end) into whole UTC months in the middle, whole days and hours
 * towards the edges, and the minutes left at each end (zones at :30 or :45 from
 * UTC): a range of any length reads at most a few dozen rollup rows per kept
 * combination, and at most two part-hours of rows.
 */
export function totalsPlan(start: Date | null, end: Date | null): TotalsPlan {
  if (start && end && start >= end) return { rows: [], buckets: [], covered: null };
  let lo = start && ceilTo(start, 'hour');
  let hi = end && floorTo(end, 'hour');
  if (lo && hi && lo >= hi) return { rows: [[start, end]], buckets: [], covered: null };
  const covered: Span = [lo, hi];
  const rows: Span[] = [];
  if (start && lo && lo > start) rows.push([start, lo]);
  if (end && hi && hi < end) rows.push([hi, end]);
  const buckets: TotalsPlan['buckets'] = [];
  let grain: Grain = 'hour';
  for (const coarser of ['day', 'month'] as const) {
    const clo = lo && ceilTo(lo, coarser);
    const chi = hi && floorTo(hi, coarser);
    if (clo && chi && clo >= chi) {
      buckets.push({ grain, span: [lo, hi] });
      return { rows, buckets, covered };
    }
    if (lo && clo && clo > lo) buckets.push({ grain, span: [lo, clo] });
    if (hi && chi && chi < hi) buckets.push({ grain, span: [chi, hi] });
    lo = clo;
    hi = chi;
    grain = coarser;
  }
  buckets.push({ grain, span: [lo, hi] });
  return { rows, buckets, covered };
}

const within = (column: AnyColumn, [from, to]: Span): SQL[] => [...(from ? [gte(column, from)] : []), ...(to ? [lt(column, to)] : [])];

interface ListSource {
  list: HistoryList;
  id: AnyColumn;
  createdAt: AnyColumn;
  /** SELECT currency, count, amount, fee, net of the matched rows, grouped by currency. */
  rowSums: (where: SQL[]) => SQL;
}

const payoutSource: ListSource = {
  list: 'payouts',
  id: payouts.id,
  createdAt: payouts.createdAt,
  rowSums: (where) => sql`SELECT ${payouts.currency} AS currency, count(*) AS count, sum(${payouts.amount}) AS amount,
      sum(${payouts.serviceFee}) AS fee,
      sum(${payoutNetSql()}) AS net
    FROM ${payouts} WHERE ${and(...where)} GROUP BY 1`,
};

const paymentSource: ListSource = {
  list: 'payments',
  id: payments.id,
  createdAt: payments.createdAt,
  rowSums: (where) => sql`SELECT ${payments.currency} AS currency, count(*) AS count, sum(${payments.amount}) AS amount,
      sum(${payments.serviceFee}) AS fee, sum(${paymentNetSql()}) AS net
    FROM ${payments} WHERE ${and(...where)} GROUP BY 1`,
};

async function totals(
  db: DbOrTx,
  source: ListSource,
  opts: HistoryTotalsOptions<{ type?: string; status?: string; from?: string; to?: string; q?: string }>,
  conditions: SQL[],
): Promise<HistoryTotals> {
  const f = opts.filters;
  const start = f.from ? zonedDayStart(f.from, opts.timeZone) : null;
  const end = f.to ? zonedDayStart(nextDay(f.to), opts.timeZone) : null;
  // A search names a reference or an order: few rows, summed directly.
  if (f.q) return sumParts(db, [source.rowSums([...conditions, ...within(source.createdAt, [start, end])])]);
  const plan = totalsPlan(start, end);
  const parts: SQL[] = [];
  for (const span of plan.rows) parts.push(source.rowSums([...conditions, ...within(source.createdAt, span)]));
  if (plan.covered) {
    // Rows past the fold mark are summed from the list. The mark read here is only a floor for the planner (a
    // constant, so it reads them by id); the statement's own read of the mark, from the snapshot that reads the
    // buckets, decides: a fold committing in between would otherwise count its rows twice.
    const floor = await foldedThrough(db, source.list);
    const mark = sql`(SELECT ${historyFolds.foldedThrough} FROM ${historyFolds} WHERE ${eq(historyFolds.list, source.list)})`;
    parts.push(source.rowSums([...conditions, gt(source.id, floor), sql`${source.id} > ${mark}`, ...within(source.createdAt, plan.covered)]));
  }
  const scope = [
    eq(historyTotals.businessId, opts.businessId),
    eq(historyTotals.mode, opts.mode),
    eq(historyTotals.list, source.list),
    ...(f.type ? [eq(historyTotals.type, f.type)] : []),
    ...(f.status ? [eq(historyTotals.status, f.status)] : []),
  ];
  for (const { grain, span } of plan.buckets) {
    parts.push(sql`SELECT ${historyTotals.currency} AS currency, ${historyTotals.count} AS count, ${historyTotals.amount} AS amount,
        ${historyTotals.fee} AS fee, ${historyTotals.net} AS net
      FROM ${historyTotals} WHERE ${and(...scope, eq(historyTotals.grain, grain), ...within(historyTotals.bucket, span))}`);
  }
  return sumParts(db, parts);
}

/** The parts' rows summed per currency, largest count first. */
async function sumParts(db: DbOrTx, parts: SQL[]): Promise<HistoryTotals> {
  if (parts.length === 0) return { count: 0, currencies: [] };
  const result = await db.execute<{ currency: string; count: string; amount: string; fee: string; net: string }>(sql`
    SELECT currency, sum(count)::bigint AS count, sum(amount)::bigint AS amount, sum(fee)::bigint AS fee, sum(net)::bigint AS net
    FROM (${sql.join(
      parts.map((p) => sql`(${p})`),
      sql` UNION ALL `,
    )}) t
    GROUP BY currency HAVING sum(count) <> 0 ORDER BY sum(count) DESC, currency`);
  const currencies = result.rows.map((r) => ({
    currency: r.currency,
    count: Number(r.count),
    amount: Number(r.amount),
    fee: Number(r.fee),
    net: Number(r.net),
  }));
  return { count: currencies.reduce((n, c) => n + c.count, 0), currencies };
}

/**
 * The count and the amount, fee and net sums per currency of every payout the
 * filters match (whatever page is shown). A payout's net is what leaves the
 * paying card, or the business account for a ledger top-up: the amount, plus
 * the fee when the sender or customer pays it. Whole hours come from the
 * history_totals rollup (plus the few rows written since its last fold), so
 * the cost stays flat from a thousand payouts to millions; a search sums its
 * few matched rows.
 */
export function payoutTotals(db: DbOrTx, opts: HistoryTotalsOptions<PayoutFilters>): Promise<HistoryTotals> {
  return totals(db, payoutSource, opts, payoutFilterConditions(opts.businessId, opts.mode, opts.filters));
}

/** The same for payments: a payment's net is what the card received, the amount; the customer paid the amount and the fee. */
export function paymentTotals(db: DbOrTx, opts: HistoryTotalsOptions<PaymentFilters>): Promise<HistoryTotals> {
  return totals(db, paymentSource, opts, paymentFilterConditions(opts.businessId, opts.mode, opts.filters));
}
