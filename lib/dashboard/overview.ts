import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors';
import type { Mode } from '../validation';
import { entryBoundary, STRAGGLER_MS } from '../ledger/entry-boundary';
import { payoutNetSql } from './net-amount';
import { dayIn, isCalendarDay, nextDay, zonedDayStart } from '../time-zone';

const OVERVIEW_PERIODS = ['today', '7d', '30d', 'custom'] as const;
type OverviewPeriodKind = (typeof OVERVIEW_PERIODS)[number];
const DEFAULT_OVERVIEW_PERIOD: OverviewPeriodKind = '30d';
/** The longest custom period: a leap year. */
export const MAX_PERIOD_DAYS = 366;

/** Calendar days of the business's zone, from and to both included. */
export interface OverviewPeriod {
  kind: OverviewPeriodKind;
  from: string;
  to: string;
}

export interface OverviewPeriodInput {
  period?: string;
  from?: string;
  to?: string;
}

const DAY = /^(\d{4})-(\d\d)-(\d\d)$/;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

function shiftDay(day: string, days: number): string {
  return new Date((dayNumber(day) + days) * 86_400_000).toISOString().slice(0, 10);
}

function customDay(value: string | undefined, field: 'from' | 'to', label: string): string {
  if (!value) throw new ServiceError('validation_error', `Enter a ${label} day.`, { field });
  const m = DAY.exec(value);
  if (!m) throw new ServiceError('validation_error', `${label} must be a date written as YYYY-MM-DD, such as 2026-05-01.`, { field });
  // A date that rolls over (2026-02-30) is not the day that was typed.
  if (Number.isNaN(dayNumber(value)) || new Date(dayNumber(value) * 86_400_000).toISOString().slice(0, 10) !== value) {
    throw new ServiceError('validation_error', `${label} is not a day of the calendar: ${value} does not exist.`, { field });
  }
  if (!isCalendarDay(value)) throw new ServiceError('validation_error', `${label} must be between 1970 and 9998.`, { field });
  return value;
}

/**
 * The period an overview URL asks for: today, the last 7 or 30 days (today
 * included) or a custom from/to. An unknown period reads as the default; a
 * custom period that cannot be shown throws a validation ServiceError naming
 * the field, for the page to show beside it.
 */
export function parseOverviewPeriod(input: OverviewPeriodInput, timeZone: string, now = new Date()): OverviewPeriod {
  const kind = OVERVIEW_PERIODS.find((p) => p === input.period) ?? (input.from || input.to ? 'custom' : DEFAULT_OVERVIEW_PERIOD);
  const today = dayIn(timeZone, now);
  if (kind === 'today') return { kind, from: today, to: today };
  if (kind === '7d') return { kind, from: shiftDay(today, -6), to: today };
  if (kind === '30d') return { kind, from: shiftDay(today, -29), to: today };
  const from = customDay(input.from?.trim(), 'from', 'From');
  const to = customDay(input.to?.trim(), 'to', 'To');
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days < 1) throw new ServiceError('validation_error', 'To must be the same day as From or later.', { field: 'to' });
  if (days > MAX_PERIOD_DAYS) {
    throw new ServiceError('validation_error', `A custom period can be at most ${MAX_PERIOD_DAYS} days; this one is ${days}.`, { field: 'to' });
  }
  return { kind, from, to };
}

/** Every day of the period, in order. */
function periodDays(period: Pick<OverviewPeriod, 'from' | 'to'>): string[] {
  const days: string[] = [];
  for (let d = period.from; d <= period.to; d = nextDay(d)) days.push(d);
  return days;
}

interface CountAmount {
  count: number;
  amount: number;
  fee: number;
}

/** The payout types of the lists: a ledger top-up is `topup`, whatever its payout_type. */
const OVERVIEW_PAYOUT_TYPES = ['bank', 'b2b', 'card_to_card', 'topup'] as const;
type OverviewPayoutType = (typeof OVERVIEW_PAYOUT_TYPES)[number];
/** Payouts whose money leaves the business: to a bank or wallet, or to another business. */
const OUTGOING_PAYOUT_TYPES: readonly OverviewPayoutType[] = ['bank', 'b2b'];

export interface PeriodTotals {
  currency: string;
  /** paymentsIn.amount + cardToCardIn.amount - payoutsOut.amount. */
  netVolume: number;
  /** Paid payments: what their cards received (the customer paid the fee on top). */
  paymentsIn: CountAmount;
  /** Card-to-card payouts from other businesses' cards: what this business's cards received (fee 0: the fee is the sender's). */
  cardToCardIn: CountAmount;
  /** Successful bank, wallet, B2B and card-to-card-to-another-business payouts: what left the paying cards, with the fee when the sender paid it. */
  payoutsOut: CountAmount;
  /** The part of payoutsOut that went card-to-card to other businesses' cards (also in payoutsByType.card_to_card). */
  cardToCardOut: CountAmount;
  /** Successful payouts of every type, card-to-card and top-ups included. */
  payoutsByType: Record<OverviewPayoutType, CountAmount>;
  /** Service fees on paid payments and on successful payouts of every type. */
  fees: number;
  failed: { payments: number; payouts: number };
  pending: { payments: CountAmount; payouts: CountAmount };
}

interface DayVolume {
  day: string;
  currency: string;
  /** Money in: paid payments and card-to-card from other businesses (counted in paymentCount too). */
  paymentsIn: number;
  payoutsOut: number;
  net: number;
  paymentCount: number;
  payoutCount: number;
}

export interface PeriodVolume {
  period: OverviewPeriod;
  totals: PeriodTotals[];
  /** One entry per day of the period and currency of `totals`, zeros included, oldest first. */
  days: DayVolume[];
}

export interface PeriodVolumeOptions {
  businessId: number;
  mode: Mode;
  timeZone: string;
  period: Pick<OverviewPeriod, 'from' | 'to'> & { kind?: OverviewPeriodKind };
}

function bounds(opts: PeriodVolumeOptions) {
  return {
    start: zonedDayStart(opts.period.from, opts.timeZone).toISOString(),
    end: zonedDayStart(nextDay(opts.period.to), opts.timeZone).toISOString(),
  };
}

/**
 * Per local day, currency and status: the business's payments made in the
 * period. The WHERE is the prefix and range of payments_list_idx, so a long
 * period reads this business's rows of those days and nothing else.
 */
export function paymentsPeriodQuery(opts: PeriodVolumeOptions): SQL {
  const { start, end } = bounds(opts);
  return sql`
    SELECT to_char(created_at AT TIME ZONE ${opts.timeZone}, 'YYYY-MM-DD') AS day, currency, status,
           count(*)::bigint AS count, sum(amount)::bigint AS amount, sum(service_fee)::bigint AS fee
    FROM payments
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND created_at >= ${start}::timestamptz AND created_at < ${end}::timestamptz
    GROUP BY 1, 2, 3`;
}

/**
 * Per local day, currency, status and list type: the business's payouts made in the period, on payouts_list_idx.
 * `crossing` marks card-to-card payouts to a card of another business (found by the unique card number).
 */
export function payoutsPeriodQuery(opts: PeriodVolumeOptions): SQL {
  const { start, end } = bounds(opts);
  return sql`
    SELECT to_char(created_at AT TIME ZONE ${opts.timeZone}, 'YYYY-MM-DD') AS day, currency, status,
           CASE WHEN is_ledger_topup THEN 'topup' ELSE payout_type END AS type,
           (payout_type = 'card_to_card' AND NOT is_ledger_topup AND coalesce(
             (SELECT d.business_id FROM cards d WHERE d.card_number = payouts.destination_card_number) <> business_id, false)) AS crossing,
           count(*)::bigint AS count, sum(${payoutNetSql()})::bigint AS amount, sum(service_fee)::bigint AS fee
    FROM payouts
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND created_at >= ${start}::timestamptz AND created_at < ${end}::timestamptz
    GROUP BY 1, 2, 3, 4, 5`;
}

/**
 * Per local day and currency: card-to-card payouts other businesses made to this business's cards in the period,
 * from the ledger (what the cards received). Each card's entries are read on (account_id, id) between the entries
 * written an hour either side of the period, then by the transaction's time exactly.
 */
function cardToCardInQuery(opts: PeriodVolumeOptions): SQL {
  const { start, end } = bounds(opts);
  const lo = entryBoundary(new Date(Date.parse(start) - STRAGGLER_MS));
  const hi = entryBoundary(new Date(Date.parse(end) + STRAGGLER_MS));
  return sql`
    WITH b AS MATERIALIZED (SELECT ${lo} AS lo, ${hi} AS hi)
    SELECT to_char(t.created_at AT TIME ZONE ${opts.timeZone}, 'YYYY-MM-DD') AS day, e.currency,
           count(DISTINCT t.id)::bigint AS count, sum(e.amount)::bigint AS amount
    FROM cards c CROSS JOIN b
    JOIN ledger_entries e ON e.account_id = c.account_id AND e.id >= b.lo AND e.id < b.hi
    JOIN ledger_transactions t ON t.id = e.transaction_id
    WHERE c.business_id = ${opts.businessId} AND c.mode = ${opts.mode} AND e.amount > 0
      AND t.kind = 'payout_card_to_card' AND t.business_id <> ${opts.businessId} AND t.mode = ${opts.mode}
      AND t.created_at >= ${start}::timestamptz AND t.created_at < ${end}::timestamptz
    GROUP BY 1, 2`;
}

const zero = (): CountAmount => ({ count: 0, amount: 0, fee: 0 });
const add = (into: CountAmount, r: { count: number; amount: number; fee: number }) => {
  into.count += r.count;
  into.amount += r.amount;
  into.fee += r.fee;
};

function emptyTotals(currency: string): PeriodTotals {
  return {
    currency,
    netVolume: 0,
    paymentsIn: zero(),
    cardToCardIn: zero(),
    payoutsOut: zero(),
    cardToCardOut: zero(),
    payoutsByType: { bank: zero(), b2b: zero(), card_to_card: zero(), topup: zero() },
    fees: 0,
    failed: { payments: 0, payouts: 0 },
    pending: { payments: zero(), payouts: zero() },
  };
}

type PaymentRow = { day: string; currency: string; status: string; count: string | number; amount: string | number; fee: string | number };
type PayoutRow = PaymentRow & { type: OverviewPayoutType; crossing: boolean };
type CardToCardInRow = { day: string; currency: string; count: string | number; amount: string | number };
type PeriodRows = { payments: PaymentRow[]; payouts: PayoutRow[]; cardToCardIn: CardToCardInRow[] };

async function readPeriodRows(db: DbOrTx, opts: PeriodVolumeOptions): Promise<PeriodRows> {
  const [payments, payouts, cardToCardIn] = await Promise.all([
    db.execute<PaymentRow>(paymentsPeriodQuery(opts)),
    db.execute<PayoutRow>(payoutsPeriodQuery(opts)),
    db.execute<CardToCardInRow>(cardToCardInQuery(opts)),
  ]);
  return { payments: payments.rows, payouts: payouts.rows, cardToCardIn: cardToCardIn.rows };
}

const emptyDay = (day: string, currency: string): DayVolume => ({ day, currency, paymentsIn: 0, payoutsOut: 0, net: 0, paymentCount: 0, payoutCount: 0 });

function summarise(opts: PeriodVolumeOptions, rows: PeriodRows, alsoCurrencies: string[]): PeriodVolume {
  const totals = new Map<string, PeriodTotals>();
  const perDay = new Map<string, DayVolume>();
  const totalsOf = (currency: string) => {
    const t = totals.get(currency) ?? emptyTotals(currency);
    totals.set(currency, t);
    return t;
  };
  const dayOf = (day: string, currency: string) => {
    const key = `${currency} ${day}`;
    const d = perDay.get(key) ?? emptyDay(day, currency);
    perDay.set(key, d);
    return d;
  };
  for (const currency of alsoCurrencies) totalsOf(currency);
  for (const raw of rows.payments) {
    const r = { count: Number(raw.count), amount: Number(raw.amount), fee: Number(raw.fee) };
    const t = totalsOf(raw.currency);
    if (raw.status === 'success') {
      add(t.paymentsIn, r);
      const d = dayOf(raw.day, raw.currency);
      d.paymentsIn += r.amount;
      d.paymentCount += r.count;
    } else if (raw.status === 'pending') add(t.pending.payments, r);
    // Records show a cancelled payment as failed (README, Payments).
    else t.failed.payments += r.count;
  }
  for (const raw of rows.payouts) {
    const r = { count: Number(raw.count), amount: Number(raw.amount), fee: Number(raw.fee) };
    const t = totalsOf(raw.currency);
    if (raw.status === 'success') {
      add(t.payoutsByType[raw.type], r);
      if (raw.crossing) add(t.cardToCardOut, r);
      if (OUTGOING_PAYOUT_TYPES.includes(raw.type) || raw.crossing) {
        add(t.payoutsOut, r);
        const d = dayOf(raw.day, raw.currency);
        d.payoutsOut += r.amount;
        d.payoutCount += r.count;
      }
    } else if (raw.status === 'pending') add(t.pending.payouts, r);
    else t.failed.payouts += r.count;
  }
  for (const raw of rows.cardToCardIn) {
    const r = { count: Number(raw.count), amount: Number(raw.amount), fee: 0 };
    add(totalsOf(raw.currency).cardToCardIn, r);
    const d = dayOf(raw.day, raw.currency);
    d.paymentsIn += r.amount;
    d.paymentCount += r.count;
  }
  const list = [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency));
  for (const t of list) {
    t.netVolume = t.paymentsIn.amount + t.cardToCardIn.amount - t.payoutsOut.amount;
    t.fees = t.paymentsIn.fee + OVERVIEW_PAYOUT_TYPES.reduce((s, type) => s + t.payoutsByType[type].fee, 0);
  }
  const days = periodDays(opts.period);
  const series = list.flatMap((t) =>
    days.map((day) => {
      const d = perDay.get(`${t.currency} ${day}`) ?? emptyDay(day, t.currency);
      return { ...d, net: d.paymentsIn - d.payoutsOut };
    }),
  );
  return { period: { kind: opts.period.kind ?? 'custom', from: opts.period.from, to: opts.period.to }, totals: list, days: series };
}

/**
 * Money in and out for a period of the business's calendar days, per
 * currency, and the same per day. Net volume is money in (paid payments
 * and card-to-card from other businesses' cards) minus successful payouts
 * that leave the business (bank, wallet, B2B, card-to-card to another
 * business's card); moves between its own cards and top-ups from its
 * business balance stay inside it. A row counts on the local day it was created, in its status now.
 * `alsoCurrencies` are listed even with nothing in the period (those with a balance).
 */
export async function getPeriodVolume(db: DbOrTx, opts: PeriodVolumeOptions, alsoCurrencies: string[] = []): Promise<PeriodVolume> {
  return summarise(opts, await readPeriodRows(db, opts), alsoCurrencies);
}

export interface Overview {
  balances: { currency: string; business: number; cards: number; cardCount: number }[];
  recent: {
    kind: 'payout' | 'payment';
    reference: string;
    type: string;
    /** A payout from the business balance to a card (a top-up), or the wallet of a direct charge. */
    isLedgerTopup: boolean;
    paymentMethod: string | null;
    status: string;
    currency: string;
    amount: number;
    /** What refunds took back of a payment (0 for payouts). */
    refundedAmount: number;
    createdAt: string;
  }[];
  /** Undefined when the page could not read a period (a bad custom range). */
  volume?: PeriodVolume;
}

export interface GetOverviewOptions {
  businessId: number;
  mode: Mode;
  timeZone: string;
  /** Left out, the page shows balances and recent activity only. */
  period?: OverviewPeriod;
}

/** The overview page: balances per currency and recent activity for one business and mode, and a period's volume. */
export async function getOverview(db: DbOrTx, opts: GetOverviewOptions): Promise<Overview> {
  const { businessId, mode } = opts;
  const volumeOptions = opts.period && { businessId, mode, timeZone: opts.timeZone, period: opts.period };
  const [balances, recent, periodRows] = await Promise.all([
    db.execute<{ currency: string; business: number; cards: number; card_count: number }>(sql`
      SELECT currency, sum(CASE WHEN kind = 'business' THEN balance ELSE 0 END)::bigint AS business,
             sum(CASE WHEN kind = 'card' THEN balance ELSE 0 END)::bigint AS cards,
             count(*) FILTER (WHERE kind = 'card')::bigint AS card_count
      FROM ledger_accounts a
      WHERE a.business_id = ${businessId} AND a.mode = ${mode} AND a.kind IN ('business', 'card')
        AND (a.kind = 'business' OR EXISTS (SELECT 1 FROM cards c WHERE c.account_id = a.id AND c.cancelled_at IS NULL))
      GROUP BY currency ORDER BY currency`),
    db.execute<{
      kind: 'payout' | 'payment';
      reference: string;
      type: string;
      is_ledger_topup: boolean;
      payment_method: string | null;
      status: string;
      currency: string;
      amount: number;
      refunded_amount: number;
      created_at: Date;
    }>(sql`
      (SELECT 'payout' AS kind, reference, payout_type AS type, is_ledger_topup, NULL::text AS payment_method, status, currency, amount, 0::bigint AS refunded_amount, created_at, id FROM payouts
        WHERE business_id = ${businessId} AND mode = ${mode} ORDER BY created_at DESC, id DESC LIMIT 8)
      UNION ALL
      (SELECT 'payment', link_reference, type, false, payment_method, status, currency, amount, refunded_amount, created_at, id FROM payments
        WHERE business_id = ${businessId} AND mode = ${mode} ORDER BY created_at DESC, id DESC LIMIT 8)
      ORDER BY created_at DESC LIMIT 10`),
    volumeOptions && readPeriodRows(db, volumeOptions),
  ]);
  const balanceRows = balances.rows.map((r) => ({
    currency: r.currency,
    business: Number(r.business),
    cards: Number(r.cards),
    cardCount: Number(r.card_count),
  }));
  const volume =
    volumeOptions && periodRows
      ? summarise(
          volumeOptions,
          periodRows,
          balanceRows.map((b) => b.currency),
        )
      : undefined;
  return {
    balances: balanceRows,
    recent: recent.rows.map((r) => ({
      kind: r.kind,
      reference: r.reference,
      type: r.type,
      isLedgerTopup: r.is_ledger_topup,
      paymentMethod: r.payment_method,
      status: r.status,
      currency: r.currency,
      amount: Number(r.amount),
      refundedAmount: Number(r.refunded_amount),
      createdAt: new Date(r.created_at).toISOString(),
    })),
    volume,
  };
}
