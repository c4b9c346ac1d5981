import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { csvTable, timeColumn, unitsText, wallClockFormatter, type CsvColumn } from '../dashboard/csv';
import { dayIn, isCalendarDay, nextDay, zonedDayStart } from '../dashboard/time-zone';
import { ServiceError, type FieldErrors } from '../errors';
import { CURRENCIES, type Currency, type Mode } from '../validation';
import { one, reportRead } from './report-range';

/** Age buckets by calendar days since a card's last ledger movement; the last one is open-ended. */
export const AGE_BUCKETS = [
  { key: '0-30', label: '0–30 days', from: 0, to: 30 },
  { key: '31-90', label: '31–90 days', from: 31, to: 90 },
  { key: '91-180', label: '91–180 days', from: 91, to: 180 },
  { key: '181-365', label: '181–365 days', from: 181, to: 365 },
  { key: 'over-365', label: 'Over 365 days', from: 366, to: null },
] as const;
type AgeBucketKey = (typeof AGE_BUCKETS)[number]['key'];

const DEFAULT_DORMANT_DAYS = 365;
const MAX_DORMANT_DAYS = 3650;

interface LiabilityScope {
  businessId: number;
  mode: Mode;
  timeZone: string;
}

/**
 * "As of the end of" a calendar day in the business's zone: every ledger entry
 * written before the next day begins counts, none after.
 */
export interface AsOf {
  day: string;
  end: Date;
}

/** The end of the day; `at`, when earlier, stands in for it (an export reads today as of the instant it started). */
export function asOfDay(day: string, timeZone: string, at?: Date): AsOf {
  const end = zonedDayStart(nextDay(day), timeZone);
  return { day, end: at && at < end ? at : end };
}

export interface LiabilityOptions extends LiabilityScope {
  day: string;
  /** A card is dormant when its last movement is more than this many days before the as-of day. */
  dormantDays: number;
  /** Read at this instant instead of the day's end when it is earlier (see asOfDay). */
  at?: Date;
}

interface BucketTotal {
  key: AgeBucketKey;
  cards: number;
  balance: number;
}

export interface CurrencyLiability {
  currency: Currency;
  /** Cards holding a balance at the end of the day, and what they hold. */
  cards: number;
  balance: number;
  buckets: BucketTotal[];
  /** The part of it on cards dormant for more than dormantDays. */
  dormantCards: number;
  dormantBalance: number;
  /** Sum of ledger_accounts.balance of the same cards now: equals balance when the day is today. */
  ledgerBalanceNow: number;
}

export interface LiabilityReport {
  asOf: AsOf;
  dormantDays: number;
  /** True when the day is today in the business's zone: the figures are the current balances. */
  isToday: boolean;
  currencies: CurrencyLiability[];
}

/**
 * Each card of the business and mode as it stood at `end`: the balance_after
 * and time of its last ledger entry before it (read backwards on
 * ledger_entries (account_id, id), one row per card), and its age in the
 * zone's calendar days. Cards with no entry before `end` are left out; a
 * cancelled card's sweep is its last entry, so after it the card holds zero.
 */
function cardStates(scope: LiabilityScope, asOf: AsOf): SQL {
  return sql`
    SELECT c.id, c.card_number, c.customer_id, c.currency, last.balance_after AS balance, last.created_at AS last_at,
           (${asOf.day}::date - (last.created_at AT TIME ZONE ${scope.timeZone})::date) AS age
    FROM cards c
    CROSS JOIN LATERAL (
      SELECT e.balance_after, e.created_at FROM ledger_entries e
      WHERE e.account_id = c.account_id AND e.created_at < ${asOf.end.toISOString()}::timestamptz
      ORDER BY e.id DESC LIMIT 1
    ) last
    WHERE c.business_id = ${scope.businessId} AND c.mode = ${scope.mode}`;
}

const bucketIndex = sql.raw(
  `CASE ${AGE_BUCKETS.slice(0, -1)
    .map((b, i) => `WHEN age <= ${b.to} THEN ${i}`)
    .join(' ')} ELSE ${AGE_BUCKETS.length - 1} END`,
);

const byCurrency = (a: { currency: string }, b: { currency: string }) =>
  CURRENCIES.indexOf(a.currency as Currency) - CURRENCIES.indexOf(b.currency as Currency);

/**
 * Outstanding card balances per currency at the end of a day, aged by last
 * activity, recomputed from the ledger's entries; with the ledger's current
 * card balances read in the same statement, so "today" can be shown to match.
 */
export async function liabilityReport(db: DbOrTx, opts: LiabilityOptions): Promise<LiabilityReport> {
  const asOf = asOfDay(opts.day, opts.timeZone, opts.at);
  const result = await reportRead(db, (tx) =>
    tx.execute<{
      currency: Currency;
      bucket: number | null;
      cards: number;
      balance: number;
      dormant_cards: number;
      dormant_balance: number;
      ledger: number | null;
    }>(sql`
    WITH state AS MATERIALIZED (${cardStates(opts, asOf)})
    SELECT currency, ${bucketIndex} AS bucket, count(*)::int AS cards, sum(balance)::bigint AS balance,
           count(*) FILTER (WHERE age > ${opts.dormantDays})::int AS dormant_cards,
           coalesce(sum(balance) FILTER (WHERE age > ${opts.dormantDays}), 0)::bigint AS dormant_balance,
           NULL::bigint AS ledger
    FROM state WHERE balance > 0 GROUP BY currency, bucket
    UNION ALL
    SELECT c.currency, NULL, 0, 0, 0, 0, sum(a.balance)::bigint
    FROM cards c JOIN ledger_accounts a ON a.id = c.account_id
    WHERE c.business_id = ${opts.businessId} AND c.mode = ${opts.mode}
    GROUP BY c.currency`),
  );

  const currencies = new Map<Currency, CurrencyLiability>();
  const entry = (currency: Currency) => {
    let c = currencies.get(currency);
    if (!c) {
      c = {
        currency,
        cards: 0,
        balance: 0,
        buckets: AGE_BUCKETS.map((b) => ({ key: b.key, cards: 0, balance: 0 })),
        dormantCards: 0,
        dormantBalance: 0,
        ledgerBalanceNow: 0,
      };
      currencies.set(currency, c);
    }
    return c;
  };
  for (const row of result.rows) {
    const c = entry(row.currency);
    if (row.bucket === null) {
      c.ledgerBalanceNow += Number(row.ledger ?? 0);
      continue;
    }
    const bucket = c.buckets[row.bucket];
    bucket.cards += row.cards;
    bucket.balance += Number(row.balance);
    c.cards += row.cards;
    c.balance += Number(row.balance);
    c.dormantCards += row.dormant_cards;
    c.dormantBalance += Number(row.dormant_balance);
  }
  return {
    asOf,
    dormantDays: opts.dormantDays,
    isToday: opts.day === dayIn(opts.timeZone, new Date()),
    // A currency whose cards never held money, then or now, says nothing.
    currencies: [...currencies.values()].filter((c) => c.cards > 0 || c.ledgerBalanceNow !== 0).sort(byCurrency),
  };
}

export interface DormantCard {
  id: number;
  cardNumber: string;
  currency: Currency;
  balance: number;
  lastActivityAt: Date;
  /** Calendar days from the last movement to the as-of day. */
  daysSinceActivity: number;
  /** The holder's name as this business gave it; empty when it gave none. */
  holderName: string;
}

/** A position in the dormant list, which reads by currency, then largest balance first. */
interface DormantCursor {
  currency: Currency;
  balance: number;
  id: number;
}

function encodeDormantCursor(row: DormantCursor): string {
  return Buffer.from(`${row.currency}|${row.balance}|${row.id}`).toString('base64url');
}

/** A cursor that was tampered with reads as none: the list starts over. */
function decodeDormantCursor(value: string | undefined | null): DormantCursor | undefined {
  if (!value || value.length > 100) return undefined;
  const m = /^([A-Z]{3})\|(\d{1,16})\|(\d{1,18})$/.exec(Buffer.from(value, 'base64url').toString('utf8'));
  if (!m || !CURRENCIES.includes(m[1] as Currency)) return undefined;
  return { currency: m[1] as Currency, balance: Number(m[2]), id: Number(m[3]) };
}

export interface DormantCardsOptions extends LiabilityOptions {
  currency?: Currency;
  after?: string;
  before?: string;
  limit: number;
}

export interface DormantCardsPage {
  items: DormantCard[];
  /** Cursor of the next page (smaller balances), when there is one. */
  next: string | null;
  prev: string | null;
}

function dormantRows(db: DbOrTx, opts: Omit<DormantCardsOptions, 'after' | 'before'>, cursor: DormantCursor | undefined, direction: 'after' | 'before') {
  const asOf = asOfDay(opts.day, opts.timeZone, opts.at);
  const where: SQL[] = [sql`balance > 0`, sql`age > ${opts.dormantDays}`];
  if (opts.currency) where.push(sql`currency = ${opts.currency}`);
  if (cursor) {
    where.push(
      direction === 'after'
        ? sql`(currency > ${cursor.currency} OR (currency = ${cursor.currency} AND (balance, id) < (${cursor.balance}::bigint, ${cursor.id}::bigint)))`
        : sql`(currency < ${cursor.currency} OR (currency = ${cursor.currency} AND (balance, id) > (${cursor.balance}::bigint, ${cursor.id}::bigint)))`,
    );
  }
  const order = direction === 'after' ? sql`ORDER BY s.currency ASC, s.balance DESC, s.id DESC` : sql`ORDER BY s.currency DESC, s.balance ASC, s.id ASC`;
  // Names are read for the page's rows only, and only this business's (customer_names is keyed by business).
  return reportRead(db, (tx) =>
    tx.execute<{
      id: number;
      card_number: string;
      currency: Currency;
      balance: number;
      last_at: Date | string;
      age: number;
      first_name: string | null;
      last_name: string | null;
    }>(sql`
    WITH state AS MATERIALIZED (${cardStates(opts, asOf)})
    SELECT s.id, s.card_number, s.currency, s.balance, s.last_at, s.age, n.first_name, n.last_name
    FROM (SELECT * FROM state s WHERE ${sql.join(where, sql` AND `)} ${order} LIMIT ${opts.limit + 1}) s
    LEFT JOIN customer_names n ON n.business_id = ${opts.businessId} AND n.customer_id = s.customer_id
    ${order}`),
  );
}

type DormantRow = Awaited<ReturnType<typeof dormantRows>>['rows'][number];

const toDormantCard = (r: DormantRow): DormantCard => ({
  id: Number(r.id),
  cardNumber: r.card_number,
  currency: r.currency,
  balance: Number(r.balance),
  lastActivityAt: new Date(r.last_at),
  daysSinceActivity: Number(r.age),
  holderName: [r.first_name, r.last_name].filter(Boolean).join(' '),
});

/**
 * Cards with a balance and no ledger movement for more than dormantDays at the
 * end of the day, by currency and then largest balance first, paged by keyset
 * on (currency, balance, card).
 */
export async function dormantCards(db: DbOrTx, opts: DormantCardsOptions): Promise<DormantCardsPage> {
  const after = decodeDormantCursor(opts.after);
  const before = after ? undefined : decodeDormantCursor(opts.before);
  const direction = before ? 'before' : 'after';
  const rows = (await dormantRows(db, opts, after ?? before, direction)).rows.map(toDormantCard);
  const more = rows.length > opts.limit;
  const items = rows.slice(0, opts.limit);
  if (before) items.reverse();
  const first = items[0];
  const last = items.at(-1);
  return {
    items,
    next: last && (before ? true : more) ? encodeDormantCursor(last) : null,
    prev: first && (before ? more : !!after) ? encodeDormantCursor(first) : null,
  };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Streams what `produce` yields while it runs inside one database transaction
 * of `db`, asking it for the next value only when the reader asks. When the
 * reader stops early (a cancelled download calls return()), `produce` is
 * closed and the transaction ends, releasing its connection.
 */
async function* inTransaction<T>(db: DbOrTx, produce: (tx: DbOrTx) => AsyncGenerator<T>): AsyncGenerator<T> {
  let request = deferred<boolean>();
  let response = deferred<IteratorResult<T>>();
  const finished = db.transaction(async (tx) => {
    const source = produce(tx);
    try {
      for (;;) {
        if (!(await request.promise)) return;
        request = deferred<boolean>();
        const step = await source.next();
        response.resolve(step);
        if (step.done) return;
      }
    } finally {
      await source.return(undefined);
    }
  });
  const ended = finished.then((): IteratorResult<T> => ({ done: true, value: undefined }));
  let failed = false;
  try {
    for (;;) {
      response = deferred<IteratorResult<T>>();
      request.resolve(true);
      const step = await Promise.race([response.promise, ended]);
      if (step.done) return;
      yield step.value;
    }
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    request.resolve(false);
    if (failed) await finished.catch(() => undefined);
    else await finished;
  }
}

/**
 * The whole dormant list in the page's order, a batch at a time, for the CSV
 * export: the card states are computed once, by one query read through a
 * server-side cursor in one transaction (one snapshot), `batchSize` rows per
 * fetch. `end` is frozen at the export's start (when the day is today).
 */
export function dormantCardBatches(
  db: DbOrTx,
  options: Omit<DormantCardsOptions, 'after' | 'before' | 'limit'>,
  batchSize = 5000,
): AsyncGenerator<DormantCard[]> {
  const opts = { ...options, at: options.at ?? new Date() };
  const asOf = asOfDay(opts.day, opts.timeZone, opts.at);
  return inTransaction(db, async function* (tx) {
    await tx.execute(sql`SET LOCAL jit = off`);
    await tx.execute(sql`
      DECLARE dormant_export NO SCROLL CURSOR FOR
      WITH state AS MATERIALIZED (${cardStates(opts, asOf)})
      SELECT s.id, s.card_number, s.currency, s.balance, s.last_at, s.age, n.first_name, n.last_name
      FROM state s LEFT JOIN customer_names n ON n.business_id = ${opts.businessId} AND n.customer_id = s.customer_id
      WHERE s.balance > 0 AND s.age > ${opts.dormantDays} ${opts.currency ? sql`AND s.currency = ${opts.currency}` : sql``}
      ORDER BY s.currency ASC, s.balance DESC, s.id DESC`);
    // Closed on the way out, early or not; after an error the transaction's end closes it.
    let open = true;
    try {
      for (;;) {
        const rows = await tx.execute<DormantRow>(sql`FETCH FORWARD ${sql.raw(String(Math.max(1, Math.floor(batchSize))))} FROM dormant_export`);
        if (rows.rows.length) yield rows.rows.map(toDormantCard);
        if (rows.rows.length < batchSize) return;
      }
    } catch (err) {
      open = false;
      throw err;
    } finally {
      if (open) await tx.execute(sql`CLOSE dormant_export`);
    }
  });
}

export interface LiabilityParams {
  day: string;
  dormantDays: number;
  currency?: Currency;
  after?: string;
  before?: string;
}

type Params = Record<string, string | string[] | undefined>;

/**
 * The report's choices from the URL: the as-of day (today in the zone by
 * default; never in the future), the dormancy window in days and the dormant
 * list's currency. Bad values come back as messages keyed by field, with
 * defaults in their place, so a page can say what was wrong and still show.
 */
export function parseLiabilityParams(params: Params, timeZone: string, now = new Date()): { value: LiabilityParams; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const today = dayIn(timeZone, now);
  let day = today;
  const rawDay = one(params.day);
  if (rawDay) {
    if (!isCalendarDay(rawDay)) {
      errors.day = 'Enter the day as YYYY-MM-DD, for example 2026-10-31.';
    } else if (rawDay > today) {
      errors.day = `The day cannot be after today (${today}): the ledger has nothing from the future.`;
    } else if (rawDay < '2000-01-01') {
      errors.day = 'Choose a day from 2000 on.';
    } else {
      day = rawDay;
    }
  }
  let dormantDays = DEFAULT_DORMANT_DAYS;
  const rawDormant = one(params.dormant);
  if (rawDormant) {
    const n = Number(rawDormant);
    if (!/^\d{1,5}$/.test(rawDormant) || n < 1 || n > MAX_DORMANT_DAYS) errors.dormant = `Enter a whole number of days from 1 to ${MAX_DORMANT_DAYS}.`;
    else dormantDays = n;
  }
  let currency: Currency | undefined;
  const rawCurrency = one(params.currency)?.toUpperCase();
  if (rawCurrency) {
    if (CURRENCIES.includes(rawCurrency as Currency)) currency = rawCurrency as Currency;
    else errors.currency = `Currency must be one of ${CURRENCIES.join(', ')}.`;
  }
  return { value: { day, dormantDays, currency, after: one(params.after), before: one(params.before) }, errors };
}

/** For the exports: bad input is a 400 with the field's message, never a file of the wrong figures. */
export function requireLiabilityParams(params: Params, timeZone: string, now = new Date()): LiabilityParams {
  const { value, errors } = parseLiabilityParams(params, timeZone, now);
  if (Object.keys(errors).length) throw new ServiceError('validation_error', errors);
  return value;
}

interface AgedCsvRow {
  day: string;
  currency: Currency;
  bucket: string;
  from: number | null;
  to: number | null;
  cards: number;
  balance: number;
}

/**
 * The aged summary as CSV: one line per currency and bucket and a total line
 * per currency; the day is the business's, named by its zone.
 */
export async function agedCsvFile(db: DbOrTx, opts: LiabilityOptions) {
  const report = await liabilityReport(db, opts);
  const columns: CsvColumn<AgedCsvRow>[] = [
    { header: timeColumn('as_of_end_of_day', opts.timeZone), value: (r) => r.day },
    { header: 'currency', value: (r) => r.currency },
    { header: 'days_since_last_activity', value: (r) => r.bucket },
    { header: 'days_from', value: (r) => r.from },
    { header: 'days_to', value: (r) => r.to },
    { header: 'cards', value: (r) => r.cards },
    { header: 'balance', value: (r) => unitsText(r.balance) },
    { header: 'balance_minor', value: (r) => r.balance },
  ];
  const table = csvTable(columns);
  const rows = report.currencies.flatMap((c): AgedCsvRow[] => [
    ...AGE_BUCKETS.map((b, i) => ({ day: opts.day, currency: c.currency, bucket: b.key, from: b.from, to: b.to, ...c.buckets[i] })),
    { day: opts.day, currency: c.currency, bucket: 'total', from: null, to: null, cards: c.cards, balance: c.balance },
  ]);
  return {
    header: table.header,
    chunks: (async function* () {
      if (rows.length) yield rows.map(table.line).join('');
    })(),
  };
}

/** The dormant list as CSV, in the page's order, a keyset batch per chunk; times on the business's wall clock, zone named. */
export function dormantCsvFile(db: DbOrTx, opts: Omit<DormantCardsOptions, 'after' | 'before' | 'limit'>) {
  const clock = wallClockFormatter(opts.timeZone);
  const columns: CsvColumn<DormantCard>[] = [
    { header: 'card_number', value: (c) => c.cardNumber },
    { header: 'holder_name', value: (c) => c.holderName },
    { header: 'currency', value: (c) => c.currency },
    { header: 'balance', value: (c) => unitsText(c.balance) },
    { header: 'balance_minor', value: (c) => c.balance },
    { header: timeColumn('last_activity', opts.timeZone), value: (c) => clock(c.lastActivityAt) },
    { header: 'days_since_last_activity', value: (c) => c.daysSinceActivity },
    { header: timeColumn('as_of_end_of_day', opts.timeZone), value: () => opts.day },
    { header: 'dormant_after_days', value: () => opts.dormantDays },
  ];
  const table = csvTable(columns);
  return {
    header: table.header,
    chunks: (async function* () {
      for await (const batch of dormantCardBatches(db, opts)) yield batch.map(table.line).join('');
    })(),
  };
}
