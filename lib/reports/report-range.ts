import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { ethiopicRange } from '../i18n/ethiopic-range';
import { dayIn, isCalendarDay, nextDay, zonedDayStart } from '../time-zone';
import type { FieldErrors } from '../errors';
import { CURRENCIES, type Currency } from '../validation';

export type ReportParams = Record<string, string | string[] | undefined>;

export const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;

/** A range of the business's calendar days (both inclusive) and the instants it starts and ends at. */
export interface DayRange {
  from: string;
  to: string;
  start: Date;
  /** The start of the day after `to`: the range holds what happened before it. */
  end: Date;
}

export function dayRangeOf(from: string, to: string, timeZone: string): DayRange {
  return { from, to, start: zonedDayStart(from, timeZone), end: zonedDayStart(nextDay(to), timeZone) };
}

const isDay = isCalendarDay;

/** Calendar days from `from` to `to`, both counted. */
const daysIn = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

interface RangeParams {
  from: string;
  to: string;
}

/**
 * from and to from the URL, as days of the business's zone. Both default to
 * this month so far; neither may be after today nor from after to. Bad values
 * come back as messages keyed by field with the defaults in their place, so a
 * page can say what was wrong and still show.
 */
export function parseRangeParams(asked: ReportParams, timeZone: string, opts: { now?: Date; maxDays?: number } = {}) {
  const errors: FieldErrors = {};
  const today = dayIn(timeZone, opts.now ?? new Date());
  const params = withEthiopicPeriod(asked, today);
  const read = (name: 'from' | 'to', fallback: string) => {
    const raw = one(params[name]);
    if (!raw) return fallback;
    if (!isDay(raw)) errors[name] = 'Enter the day as YYYY-MM-DD, for example 2026-10-31.';
    else if (raw > today) errors[name] = `The day cannot be after today (${today}): the ledger has nothing from the future.`;
    else if (raw < '2000-01-01') errors[name] = 'Choose a day from 2000 on.';
    else return raw;
    return fallback;
  };
  let to = read('to', today);
  let from = read('from', `${to.slice(0, 8)}01`);
  if (from > to && !errors.from && !errors.to) {
    errors.from = `The first day (${from}) is after the last (${to}).`;
    from = `${to.slice(0, 8)}01`;
  }
  if (opts.maxDays && daysIn(from, to) > opts.maxDays && !errors.from) {
    errors.from = `Choose at most ${opts.maxDays} days at a time.`;
    from = `${to.slice(0, 8)}01`;
    if (errors.to) to = today;
  }
  return { value: { from, to } as RangeParams, errors, today };
}

/**
 * An Ethiopian month or fiscal year (`eth_month=2018-13`, `eth_year=2019`) read as the range of the
 * zone's days it covers, in place of from and to: every report and its export then read it as any other range.
 */
function withEthiopicPeriod(params: ReportParams, today: string): ReportParams {
  const period = ethiopicRange({ eth_month: one(params.eth_month), eth_year: one(params.eth_year) }, today);
  return period ? { ...params, ...period } : params;
}

/** An optional currency from the URL; an unknown one is named as an error. */
export function parseCurrencyParam(params: ReportParams, errors: FieldErrors): Currency | undefined {
  const raw = one(params.currency)?.toUpperCase();
  if (!raw) return undefined;
  if (CURRENCIES.includes(raw as Currency)) return raw as Currency;
  errors.currency = `Currency must be one of ${CURRENCIES.join(', ')}.`;
  return undefined;
}

/**
 * Runs a report's reads in one read-only REPEATABLE READ transaction, so every
 * statement sees the same snapshot (a payout committed between two reads
 * cannot look like a mismatch), with JIT off: a plan over many index probes is
 * costed high enough to be compiled, which takes longer than running it.
 * Inside a caller's transaction it reads that transaction's state.
 */
export function reportRead<T>(db: DbOrTx, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  const run = async (tx: DbOrTx) => {
    await tx.execute(sql`SET LOCAL jit = off`);
    return fn(tx);
  };
  if ('rollback' in db) return db.transaction(run);
  return db.transaction(run, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}
