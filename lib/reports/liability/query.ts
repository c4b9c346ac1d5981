import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { dayIn } from '../../time-zone';
import { CURRENCIES, type Currency } from '../../validation';
import { reportRead } from '../report-range';
import {
  AGE_BUCKETS,
  type AsOf,
  asOfDay,
  type CurrencyLiability,
  type DormantCard,
  type DormantCardsOptions,
  type DormantCardsPage,
  type LiabilityOptions,
  type LiabilityReport,
  type LiabilityScope,
} from './definitions';

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

  // Holds of card money open at the day's end: still owed, though not on the cards' balances meanwhile.
  const held = await reportRead(db, (tx) =>
    tx.execute<{ currency: Currency; held: number }>(sql`
      SELECT currency, sum(amount)::bigint AS held FROM holds
      WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND card_id IS NOT NULL
        AND created_at < ${asOf.end.toISOString()}::timestamptz AND (released_at IS NULL OR released_at >= ${asOf.end.toISOString()}::timestamptz)
      GROUP BY currency`),
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
        heldForApproval: 0,
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
  for (const row of held.rows) entry(row.currency).heldForApproval = Number(row.held);
  return {
    asOf,
    dormantDays: opts.dormantDays,
    isToday: opts.day === dayIn(opts.timeZone, new Date()),
    // A currency whose cards never held money, then or now, says nothing.
    currencies: [...currencies.values()].filter((c) => c.cards > 0 || c.ledgerBalanceNow !== 0 || c.heldForApproval !== 0).sort(byCurrency),
  };
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
