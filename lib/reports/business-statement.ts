import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { csvLine, timeColumn, wallClockFormatter } from '../csv';
import { unitsText } from '../money-text';
import { ServiceError, type FieldErrors } from '../errors';
import { CURRENCIES, type Currency, type Mode } from '../validation';
import { entryBoundary } from '../ledger/entry-boundary';
import { dayRangeOf, one, parseCurrencyParam, parseRangeParams, reportRead, type DayRange, type ReportParams } from './report-range';
import { describeLine, kindOf, kindWhere, STATEMENT_KIND_LABELS, STATEMENT_KINDS, type StatementKind } from './statement-kinds';

interface StatementScope {
  businessId: number;
  mode: Mode;
  timeZone: string;
}

export interface StatementOptions extends StatementScope {
  currency: Currency;
  from: string;
  to: string;
  kind?: StatementKind;
  /** One branch's movements only (issue 45): redemptions and captures recorded at it. */
  location?: number;
}

export interface StatementLine {
  entryId: number;
  transactionId: number;
  at: Date;
  kind: StatementKind;
  /** The ledger transaction's own kind (business_deposit, transfer, ...). */
  ledgerKind: string;
  reference: string | null;
  /** The card on the other side (top-ups, sweeps, refunds, payments), when there is one. */
  cardNumber: string | null;
  /** The paying business's name, for a business payout received; never its card holder's. */
  payerName: string | null;
  description: string;
  /** Signed: positive came into the business account, negative left it. */
  amount: number;
  balanceAfter: number;
  /** The provider's fee in the same ledger transaction (negative when it was given back); it does not move this account by itself. */
  fee: number;
}

export interface StatementSummary {
  currency: Currency;
  range: DayRange;
  kind?: StatementKind;
  /** The business account of this currency; null when the business has never held this currency. */
  accountId: number | null;
  /** Balance just before the range's first movement, and just after its last. */
  opening: number;
  closing: number;
  /** Totals of the lines listed (of the chosen kind only, when one is chosen). */
  moneyIn: number;
  moneyOut: number;
  lines: number;
  /** ledger_accounts.balance now. */
  balanceNow: number;
  /** The range's edges as entry ids of the account (the lines are lo <= id < hi), so an export lists exactly what its totals add up. */
  entries: { lo: number; hi: number } | null;
}

/** The business account's name (lib/ledger/accounts.ts): with mode and currency, the key of ledger_accounts_name_idx. */
const businessAccountName = (businessId: number) => `business:${businessId}`;

/** The business account of the statement's mode and currency, by ledger_accounts_name_idx (never a scan of every card's account). */
export async function businessAccount(db: DbOrTx, opts: Pick<StatementOptions, 'businessId' | 'mode' | 'currency'>) {
  const r = await db.execute<{ id: number; balance: number }>(sql`
    SELECT id, balance FROM ledger_accounts
    WHERE mode = ${opts.mode} AND currency = ${opts.currency} AND name = ${businessAccountName(opts.businessId)} AND kind = 'business'`);
  return r.rows[0] ? { id: Number(r.rows[0].id), balance: Number(r.rows[0].balance) } : undefined;
}

async function bounds(db: DbOrTx, accountId: number, range: DayRange) {
  const r = await db.execute<{ lo: number; hi: number }>(
    sql`SELECT ${entryBoundary(range.start, accountId)} AS lo, ${entryBoundary(range.end, accountId)} AS hi`,
  );
  return { lo: Number(r.rows[0].lo), hi: Number(r.rows[0].hi) };
}

/** A branch's movements: the ledger transaction names where it happened (another business's branch matches none of its lines). */
const locationWhere = (location: number | undefined): SQL => (location === undefined ? sql`true` : sql`t.location_id = ${location}`);

/** Opening and closing balances of the range from the balance chain, and the totals in and out of its lines. */
export async function statementSummary(db: DbOrTx, opts: StatementOptions): Promise<StatementSummary> {
  const range = dayRangeOf(opts.from, opts.to, opts.timeZone);
  const empty = { currency: opts.currency, range, kind: opts.kind, opening: 0, closing: 0, moneyIn: 0, moneyOut: 0, lines: 0 };
  return reportRead(db, async (tx) => {
    const account = await businessAccount(tx, opts);
    if (!account) return { ...empty, accountId: null, balanceNow: 0, entries: null };
    const { lo, hi } = await bounds(tx, account.id, range);
    const r = await tx.execute<{ opening: number; closing: number; money_in: number; money_out: number; lines: number }>(sql`
      SELECT
        coalesce((SELECT balance_after FROM ledger_entries WHERE account_id = ${account.id} AND id < ${lo} ORDER BY id DESC LIMIT 1), 0)::bigint AS opening,
        coalesce((SELECT balance_after FROM ledger_entries WHERE account_id = ${account.id} AND id < ${hi} ORDER BY id DESC LIMIT 1), 0)::bigint AS closing,
        coalesce(sum(e.amount) FILTER (WHERE e.amount > 0), 0)::bigint AS money_in,
        coalesce(-sum(e.amount) FILTER (WHERE e.amount < 0), 0)::bigint AS money_out,
        count(*)::bigint AS lines
      FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE e.account_id = ${account.id} AND e.id >= ${lo} AND e.id < ${hi} AND ${kindWhere(opts.kind)} AND ${locationWhere(opts.location)}`);
    const row = r.rows[0];
    return {
      ...empty,
      accountId: account.id,
      balanceNow: account.balance,
      opening: Number(row.opening),
      closing: Number(row.closing),
      moneyIn: Number(row.money_in),
      moneyOut: Number(row.money_out),
      lines: Number(row.lines),
      entries: { lo, hi },
    };
  });
}

type LineRow = Record<string, unknown> & {
  id: number;
  transaction_id: number;
  amount: number;
  balance_after: number;
  created_at: Date | string;
  kind: string;
  reference: string | null;
  payer: string | null;
  card_number: string | null;
  fee: number | null;
};

/**
 * The lines between two entry ids, in entry order or backwards. The
 * counterpart is read per line by unique indexes, from this business's own
 * payouts and payments only; a business payout received names the paying
 * business and nothing of its cards or holders.
 */
function lineRows(db: DbOrTx, opts: StatementOptions, accountId: number, where: SQL, descending: boolean, limit: number) {
  const own = sql`p.business_id = ${opts.businessId} AND p.mode = ${opts.mode}`;
  return db.execute<LineRow>(sql`
    SELECT e.id, e.transaction_id, e.amount, e.balance_after, e.created_at, t.kind, t.reference,
      CASE WHEN t.kind = 'payout_b2b' AND t.business_id IS DISTINCT FROM ${opts.businessId}
        THEN (SELECT b.name FROM businesses b WHERE b.id = t.business_id) END AS payer,
      CASE
        WHEN t.kind IN ('transfer', 'transfer_reversal') THEN (SELECT p.destination_card_number FROM payouts p WHERE p.reference = t.reference AND ${own})
        WHEN t.kind = 'payout_bank_reversal' THEN (SELECT p.source_card_number FROM payouts p WHERE p.reference = t.reference AND ${own})
        WHEN t.kind = 'payment' THEN (SELECT p.card_number FROM payments p WHERE p.link_reference = t.reference AND ${own})
        WHEN t.kind IN ('payment_refund', 'payment_refund_reversal') THEN (SELECT p.card_number FROM refunds r JOIN payments p ON p.id = r.payment_id
          WHERE r.reference = t.reference AND ${own})
        WHEN t.kind = 'card_cancellation' THEN t.reference
        WHEN t.kind = 'card_redemption' THEN (SELECT c.card_number FROM ledger_entries x JOIN cards c ON c.account_id = x.account_id
          WHERE x.transaction_id = t.id AND c.business_id = ${opts.businessId} AND c.mode = ${opts.mode} LIMIT 1)
        WHEN t.kind IN ('adjustment_increase', 'adjustment_decrease', 'hold', 'hold_release')
          THEN coalesce(
            (SELECT a.card_number FROM approval_requests a WHERE a.reference = t.reference AND a.business_id = ${opts.businessId} AND a.mode = ${opts.mode}),
            (SELECT c.card_number FROM holds h JOIN cards c ON c.id = h.card_id
             WHERE h.reference = t.reference AND h.kind = 'till' AND h.business_id = ${opts.businessId} AND h.mode = ${opts.mode}))
      END AS card_number,
      (SELECT sum(f.amount) FROM ledger_entries f JOIN ledger_accounts fa ON fa.id = f.account_id
        WHERE f.transaction_id = t.id AND fa.kind = 'fee_revenue')::bigint AS fee
    FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
    WHERE e.account_id = ${accountId} AND ${where} AND ${kindWhere(opts.kind)} AND ${locationWhere(opts.location)}
    ORDER BY e.id ${descending ? sql`DESC` : sql`ASC`}
    LIMIT ${limit}`);
}

function toLine(r: LineRow): StatementLine {
  const base = {
    entryId: Number(r.id),
    transactionId: Number(r.transaction_id),
    at: new Date(r.created_at),
    kind: kindOf(r.kind),
    ledgerKind: r.kind,
    reference: r.kind === 'business_deposit' ? null : r.reference,
    cardNumber: r.card_number,
    payerName: r.payer,
    amount: Number(r.amount),
    balanceAfter: Number(r.balance_after),
    fee: Number(r.fee ?? 0),
  };
  return { ...base, description: describeLine(base) };
}

export interface StatementPageOptions extends StatementOptions {
  /** Entry ids: the page after or before this line. */
  after?: number;
  before?: number;
  limit: number;
}

export interface StatementPage {
  lines: StatementLine[];
  /** Cursors (entry ids) for the later and earlier pages, when there are some. */
  next: number | null;
  prev: number | null;
}

/** One page of the statement, oldest first, by keyset on (account_id, id). */
export async function statementPage(db: DbOrTx, opts: StatementPageOptions): Promise<StatementPage> {
  const range = dayRangeOf(opts.from, opts.to, opts.timeZone);
  return reportRead(db, async (tx) => {
    const account = await businessAccount(tx, opts);
    if (!account) return { lines: [], next: null, prev: null };
    const { lo, hi } = await bounds(tx, account.id, range);
    const within = sql`e.id >= ${lo} AND e.id < ${hi}`;
    const backwards = opts.before !== undefined && opts.after === undefined;
    const cursor = opts.after !== undefined ? sql`e.id > ${opts.after}` : opts.before !== undefined ? sql`e.id < ${opts.before}` : sql`true`;
    const rows = (await lineRows(tx, opts, account.id, sql`${within} AND ${cursor}`, backwards, opts.limit + 1)).rows.map(toLine);
    const more = rows.length > opts.limit;
    const lines = rows.slice(0, opts.limit);
    if (backwards) lines.reverse();
    const first = lines[0];
    const last = lines.at(-1);
    return {
      lines,
      next: last && (backwards || more) ? last.entryId : null,
      prev: first && (backwards ? more : opts.after !== undefined) ? first.entryId : null,
    };
  });
}

/** Every line of the range in order, a batch at a time, for the CSV export: never the whole statement in memory. */
export async function* statementBatches(db: DbOrTx, opts: StatementOptions, batchSize = 2000): AsyncGenerator<StatementLine[]> {
  // The edges are fixed once, by the summary: a movement written while the file streams is in neither.
  const { accountId, entries } = await statementSummary(db, opts);
  if (accountId === null || entries === null) return;
  yield* summaryBatches(db, opts, accountId, entries, batchSize);
}

async function* summaryBatches(db: DbOrTx, opts: StatementOptions, accountId: number, entries: { lo: number; hi: number }, batchSize: number) {
  let after = entries.lo - 1;
  for (;;) {
    const rows = (await lineRows(db, opts, accountId, sql`e.id > ${after} AND e.id < ${entries.hi}`, false, batchSize)).rows.map(toLine);
    if (rows.length) yield rows;
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1].entryId;
  }
}

/**
 * The statement as CSV: an opening line, one line per movement, and a closing
 * line with the totals. Amounts in currency units and in minor units; times on
 * the business's wall clock, the zone named in the header, and in UTC.
 */
export async function statementCsvFile(db: DbOrTx, opts: StatementOptions) {
  const summary = await statementSummary(db, opts);
  const clock = wallClockFormatter(opts.timeZone);
  const header = csvLine([
    'line',
    timeColumn('time', opts.timeZone),
    'time_utc',
    'currency',
    'kind',
    'description',
    'reference',
    'card_number',
    'paying_business',
    'money_in',
    'money_out',
    'balance_after',
    'fee',
    'money_in_minor',
    'money_out_minor',
    'balance_after_minor',
    'fee_minor',
    'ledger_transaction_id',
    'ledger_entry_id',
  ]);
  const c = opts.currency;
  const summaryLine = (line: 'opening' | 'closing', at: Date, text: string, balance: number, moneyIn: number | null, moneyOut: number | null) =>
    csvLine([
      line,
      clock(at),
      at.toISOString(),
      c,
      line,
      text,
      null,
      null,
      null,
      moneyIn === null ? null : unitsText(moneyIn),
      moneyOut === null ? null : unitsText(moneyOut),
      unitsText(balance),
      null,
      moneyIn,
      moneyOut,
      balance,
      null,
      null,
      null,
    ]);
  const kindText = opts.kind ? ` (totals of ${STATEMENT_KIND_LABELS[opts.kind].toLowerCase()} only)` : '';
  return {
    header,
    chunks: (async function* () {
      yield summaryLine('opening', summary.range.start, `Opening balance at the start of ${opts.from}`, summary.opening, null, null);
      const batches = summary.accountId !== null && summary.entries ? summaryBatches(db, opts, summary.accountId, summary.entries, 2000) : [];
      for await (const batch of batches) {
        yield batch
          .map((l) =>
            csvLine([
              'movement',
              clock(l.at),
              l.at.toISOString(),
              c,
              l.kind,
              l.description,
              l.reference,
              l.cardNumber,
              l.payerName,
              l.amount > 0 ? unitsText(l.amount) : null,
              l.amount < 0 ? unitsText(-l.amount) : null,
              unitsText(l.balanceAfter),
              l.fee ? unitsText(l.fee) : null,
              l.amount > 0 ? l.amount : null,
              l.amount < 0 ? -l.amount : null,
              l.balanceAfter,
              l.fee || null,
              l.transactionId,
              l.entryId,
            ]),
          )
          .join('');
      }
      const end = summary.range.end < new Date() ? summary.range.end : new Date();
      yield summaryLine('closing', end, `Closing balance at the end of ${opts.to}${kindText}`, summary.closing, summary.moneyIn, summary.moneyOut);
    })(),
  };
}

export interface StatementParams {
  currency: Currency;
  from: string;
  to: string;
  kind?: StatementKind;
  location?: number;
  after?: number;
  before?: number;
}

const entryId = (v: string | undefined) => (v && /^\d{1,15}$/.test(v) ? Number(v) : undefined);

/**
 * The statement's choices from the URL. The currency defaults to the first
 * one the business holds (`held`, in CURRENCIES order), the days to this month so far.
 */
export function parseStatementParams(params: ReportParams, timeZone: string, held: readonly Currency[], now = new Date()) {
  const { value, errors, today } = parseRangeParams(params, timeZone, { now });
  const currency = parseCurrencyParam(params, errors) ?? held[0] ?? CURRENCIES[0];
  const rawKind = one(params.kind);
  const kind = STATEMENT_KINDS.find((k) => k === rawKind);
  if (rawKind && !kind) errors.kind = 'Choose a kind of movement from the list.';
  const rawLocation = one(params.location);
  const location = rawLocation && /^\d{1,9}$/.test(rawLocation) ? Number(rawLocation) : undefined;
  if (rawLocation && location === undefined) errors.location = 'Choose a branch from the list.';
  const result: StatementParams = { ...value, currency, kind, location, after: entryId(one(params.after)), before: entryId(one(params.before)) };
  return { value: result, errors: errors as FieldErrors, today };
}

/** For the export: bad input is a 400 naming the field, never a file of the wrong figures. */
export function requireStatementParams(params: ReportParams, timeZone: string, held: readonly Currency[], now = new Date()): StatementParams {
  const { value, errors } = parseStatementParams(params, timeZone, held, now);
  if (Object.keys(errors).length) throw new ServiceError('validation_error', errors);
  return value;
}

/** The currencies the business has a business account in, in CURRENCIES order. */
export async function statementCurrencies(db: DbOrTx, scope: { businessId: number; mode: Mode }): Promise<Currency[]> {
  const r = await db.execute<{ currency: Currency }>(sql`
    SELECT currency FROM ledger_accounts
    WHERE mode = ${scope.mode} AND currency IN (${sql.join(
      CURRENCIES.map((c) => sql`${c}`),
      sql`, `,
    )}) AND name = ${businessAccountName(scope.businessId)} AND kind = 'business'`);
  const held = new Set(r.rows.map((x) => x.currency));
  return CURRENCIES.filter((c) => held.has(c));
}
