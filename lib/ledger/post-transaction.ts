import type { Actor } from '../actor';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { compiledOnce, runCompiled } from '../db/prepared';
import { ServiceError } from '../errors';
import type { Mode } from '../validation';

export interface Posting {
  accountId: number;
  /** Positive credits the account (its balance grows), negative debits it. */
  amount: number;
}

export interface PostTransactionOptions {
  mode: Mode;
  kind: string;
  businessId: number | null;
  reference?: string | null;
  actor: Actor;
  postings: Posting[];
  reversesId?: number | null;
  /** The error to raise when an account would go below zero, by account id. */
  onInsufficient?: (accountId: number) => ServiceError;
  /** The error to raise when an account is closed (its card was cancelled), by account id. */
  onClosed?: (accountId: number) => Error;
}

export interface PostedTransaction {
  transactionId: number;
  balances: Map<number, number>;
}

/** What the posting statement found, whatever else the statement carried. */
export interface PostingVerdict {
  found: number;
  wanted: number;
  short_account: number | null;
  closed_account: number | null;
  unbalanced: string | null;
  guard_ok: boolean;
  transaction_id: number | null;
}

/** Sums postings per account; refuses fractions and movements of fewer than two accounts. */
function mergePostings(postings: Posting[]): Map<number, number> {
  const merged = new Map<number, number>();
  for (const p of postings) {
    if (!Number.isSafeInteger(p.amount)) throw new Error(`posting amount ${p.amount} is not an integer`);
    merged.set(p.accountId, (merged.get(p.accountId) ?? 0) + p.amount);
  }
  for (const [id, amount] of merged) if (amount === 0) merged.delete(id);
  if (merged.size < 2) throw new Error('a transaction needs at least two accounts with nonzero amounts');
  return merged;
}

const P = sql.placeholder;

/** On a row of `verdict`: every account found, open and covered, the currencies balanced and the guard held. */
export const postingPasses = sql`found = wanted AND short_account IS NULL AND closed_account IS NULL AND unbalanced IS NULL AND guard_ok`;

/**
 * The values of postingCtes' placeholders for one transaction: the accounts
 * and amounts as arrays, or with `slots`, as that many numbered pairs (unused
 * ones null).
 */
export function postingValues(opts: PostTransactionOptions, slots?: number) {
  const merged = mergePostings(opts.postings);
  const accountIds = [...merged.keys()].sort((a, b) => a - b);
  const amounts = accountIds.map((id) => merged.get(id)!);
  if (slots !== undefined && accountIds.length > slots) throw new Error(`${accountIds.length} accounts for a statement of ${slots}`);
  const values: Record<string, unknown> = {
    accountCount: accountIds.length,
    mode: opts.mode,
    kind: opts.kind,
    businessId: opts.businessId,
    reference: opts.reference ?? null,
    actorType: opts.actor.type,
    actorId: opts.actor.id,
    reversesId: opts.reversesId ?? null,
  };
  if (slots === undefined) return Object.assign(values, { accountIds, amounts });
  for (let i = 0; i < slots; i++) {
    values[`account${i}`] = accountIds[i] ?? null;
    values[`amount${i}`] = amounts[i] ?? null;
  }
  return values;
}

/**
 * The accounts and amounts a posting statement reads. As arrays, for any
 * number of accounts; or as `slots` numbered pairs, for a statement that must
 * keep one plan: PostgreSQL guesses ten elements for an array placeholder, and
 * then plans the statement afresh on every call.
 */
function wantedAccounts(slots?: number): { wanted: SQL; ids: SQL } {
  if (slots === undefined) {
    return {
      wanted: sql`SELECT * FROM unnest(${P('accountIds')}::bigint[], ${P('amounts')}::bigint[]) AS w(account_id, amount)`,
      ids: sql`ANY(${P('accountIds')}::bigint[])`,
    };
  }
  const n = Array.from({ length: slots }, (_, i) => i);
  return {
    wanted: sql`SELECT * FROM (VALUES ${sql.join(
      n.map((i) => sql`(${P(`account${i}`)}::bigint, ${P(`amount${i}`)}::bigint)`),
      sql`, `,
    )}) AS w(account_id, amount) WHERE account_id IS NOT NULL`,
    ids: sql`ANY(ARRAY[${sql.join(
      n.map((i) => sql`${P(`account${i}`)}::bigint`),
      sql`, `,
    )}])`,
  };
}

/**
 * The CTEs that post one balanced transaction in a single statement: lock the
 * accounts in id order (so two movements never wait on each other in a
 * cycle), then write the transaction, its entries and the new balances only if
 * every account exists, is open and stays at or above zero, every currency
 * sums to zero, and `guard` (evaluated in the same statement) holds. The
 * locked rows are their latest versions, so the checks hold at commit.
 * Its placeholders take postingValues (with the same `slots`).
 *
 * Later CTEs may read `posted` (the new transaction's id: no row when
 * refused) and `moves` (account id and balance after). `postingVerdict`
 * selects the outcome. `then` adds CTEs between the verdict and the posting
 * (they may read `verdict` and `postingPasses`) and a last condition on them:
 * a counter that must move only with the money (a daily limit's total).
 */
export function postingCtes(guard: SQL = sql`true`, slots?: number, then?: { ctes: SQL; guard: SQL }): SQL {
  const { wanted, ids } = wantedAccounts(slots);
  return sql`
    wanted AS (
      ${wanted}
    ), ${lockedCte(sql`= ${ids}`)}, moves AS MATERIALIZED (
      SELECT l.id, l.currency, w.amount, l.balance + w.amount AS after, l.allow_negative, l.closed
      FROM locked l JOIN wanted w ON w.account_id = l.id
    ), ${verdictCte(sql`${P('accountCount')}::int`, guard)}, ${then ? sql`${then.ctes}, ` : sql``}posted AS (
      ${transactionInsert((name) => P(name), sql`verdict`, then)}
      RETURNING id
    ), entries AS (
      INSERT INTO ledger_entries (transaction_id, account_id, currency, amount, balance_after)
      SELECT posted.id, m.id, m.currency, m.amount, m.after FROM posted, moves m
    ), balances AS (
      UPDATE ledger_accounts a SET balance = m.after FROM moves m, posted WHERE a.id = m.id
    )`;
}

/** The accounts `ids` (an `= ANY(…)` tail: an array the planner takes for a few ids, found by index), locked in id order so two movements never wait on each other in a cycle. */
const lockedCte = (ids: SQL) => sql`locked AS MATERIALIZED (
      SELECT id, currency, balance, allow_negative, closed_at IS NOT NULL AS closed
      FROM ledger_accounts WHERE id ${ids} ORDER BY id FOR UPDATE
    )`;

/** The checks on `moves` (an account's currency, amount, balance after and whether it may go negative or is closed) and the guard. */
const verdictCte = (wanted: SQL, guard: SQL) => sql`verdict AS MATERIALIZED (
      SELECT count(*)::int AS found, ${wanted} AS wanted,
             min(id) FILTER (WHERE after < 0 AND NOT allow_negative) AS short_account,
             min(id) FILTER (WHERE closed) AS closed_account,
             (SELECT string_agg(currency || ' by ' || total, ', ') FROM
               (SELECT currency, sum(amount) AS total FROM moves GROUP BY currency HAVING sum(amount) <> 0) u) AS unbalanced,
             (${guard}) AS guard_ok
      FROM moves
    )`;

/** The ledger transaction's row, its fields named by `v` (postingValues' names), written only when the posting passes. */
const transactionInsert = (v: (name: string) => SQL | unknown, from: SQL, then?: { guard: SQL }) => sql`
      INSERT INTO ledger_transactions (mode, kind, business_id, reference, actor_type, actor_id, reverses_id)
      SELECT ${v('mode')}, ${v('kind')}, ${v('businessId')}, ${v('reference')}, ${v('actorType')}, ${v('actorId')}, ${v('reversesId')}::bigint
      FROM ${from}
      WHERE ${postingPasses}${then ? sql` AND (${then.guard})` : sql``}`;

/**
 * postingCtes for a chunk of transactions in one statement, all written or
 * none: the caller's CTE `items` has a row per transaction (its `ord`, and
 * postingValues' fields by name as `v` reads them, the reference unique) and
 * `lines` a row per merged posting (ord, account_id, amount). The checks are
 * postingCtes' own, made once on each account's worst case: its balance after
 * all the chunk's debits and none of its credits (so no order of the chunk can
 * take it lower), and the guard. When they pass, every transaction passes as
 * if posted one after another in `ord` order, and is written as that would:
 * transactions and entries in that order, each entry's balance_after the
 * running balance. `posted` then has each transaction's id and reference;
 * `credits` each account's balance after all the chunk's credits and none of
 * its debits (id, amount credited, after), for limits on credits.
 */
export function postingChunkCtes(v: (name: string) => SQL | unknown, guard: SQL, then?: { ctes: SQL; guard: SQL }): SQL {
  return sql`
    wanted AS MATERIALIZED (
      SELECT account_id, sum(amount)::bigint AS amount, sum(least(amount, 0))::bigint AS debits, sum(greatest(amount, 0))::bigint AS credits
      FROM lines GROUP BY account_id
    ), ${lockedCte(sql`= ANY(ARRAY(SELECT account_id FROM wanted))`)}, moves AS MATERIALIZED (
      SELECT l.id, l.currency, w.amount, l.balance + w.debits AS after, l.allow_negative, l.closed
      FROM locked l JOIN wanted w ON w.account_id = l.id
    ), credits AS MATERIALIZED (
      SELECT l.id, w.credits AS amount, l.balance + w.credits AS after FROM locked l JOIN wanted w ON w.account_id = l.id
    ), ${verdictCte(sql`(SELECT count(*)::int FROM wanted)`, guard)}, ${then ? sql`${then.ctes}, ` : sql``}posted AS (
      ${transactionInsert(v, sql`items i, verdict`, then)}
      ORDER BY i.ord
      RETURNING id, reference
    ), entries AS (
      INSERT INTO ledger_entries (transaction_id, account_id, currency, amount, balance_after)
      SELECT p.id, l.id, l.currency, n.amount, l.balance + sum(n.amount) OVER (PARTITION BY n.account_id ORDER BY n.ord)
      FROM lines n JOIN items i ON i.ord = n.ord JOIN posted p ON p.reference = i.reference JOIN locked l ON l.id = n.account_id
      ORDER BY n.ord, n.account_id
    ), balances AS (
      UPDATE ledger_accounts a SET balance = l.balance + w.amount FROM locked l JOIN wanted w ON w.account_id = l.id
      WHERE a.id = l.id AND EXISTS (SELECT 1 FROM posted)
    )`;
}

/** The columns to select after postingCtes: the verdict and the posted transaction's id. */
export const postingVerdict = sql`
  v.found, v.wanted, v.short_account, v.closed_account, v.unbalanced, v.guard_ok, (SELECT id FROM posted) AS transaction_id`;

/** What refused a posting that its caller answers: its guard, a closed account (a cancelled card), or a balance that would go below zero. */
export type PostingRefusal = { reason: 'guard' } | { reason: 'closed' | 'short'; accountId: number };

const GUARD_REFUSED: PostingRefusal = { reason: 'guard' };

/**
 * Undefined when the posting was written; else what refused it, in the order
 * a reader expects: an unknown account or an unbalanced transaction (bugs,
 * thrown), then the guard (it re-checks what the caller read, a card still
 * active say, so the caller's answer comes first), a closed account, a
 * balance below zero.
 */
export function postingRefusal(v: PostingVerdict): PostingRefusal | undefined {
  if (v.transaction_id !== null) return undefined;
  if (v.found < v.wanted) throw new Error('posting to an unknown ledger account');
  if (v.unbalanced !== null) throw new Error(`transaction does not balance: off in ${v.unbalanced}`);
  if (!v.guard_ok) return GUARD_REFUSED;
  if (v.closed_account !== null) return { reason: 'closed', accountId: Number(v.closed_account) };
  if (v.short_account !== null) return { reason: 'short', accountId: Number(v.short_account) };
  throw new Error('posting refused for no reason the verdict names');
}

/** Raises what refused a posting made without a guard, with the caller's errors for a closed account and a balance below zero. */
export function checkPosting(v: PostingVerdict, opts: PostTransactionOptions): void {
  const refusal = postingRefusal(v);
  if (refusal === undefined) return;
  if (refusal.reason === 'closed') {
    throw opts.onClosed?.(refusal.accountId) ?? new Error(`posting to closed ledger account ${refusal.accountId}`);
  }
  if (refusal.reason === 'short') {
    throw opts.onInsufficient?.(refusal.accountId) ?? new ServiceError('insufficient_balance', 'The account does not hold enough funds.');
  }
  throw new Error('posting refused by a guard it was not given');
}

const postingStatement = compiledOnce(
  () => sql`WITH ${postingCtes()} SELECT ${postingVerdict}, (SELECT json_object_agg(id, after) FROM moves) AS balances FROM verdict v`,
);

/**
 * Appends one balanced transaction in one statement. Runs in the caller's
 * database transaction, or alone: the statement is atomic by itself. Overdrafts
 * are refused before anything is written.
 */
export async function postTransaction(db: DbOrTx, opts: PostTransactionOptions): Promise<PostedTransaction> {
  const result = await runCompiled<PostingVerdict & { balances: Record<string, number> | null }>(db, postingStatement(), postingValues(opts));
  const v = result.rows[0];
  checkPosting(v, opts);
  return {
    transactionId: Number(v.transaction_id),
    balances: new Map(Object.entries(v.balances ?? {}).map(([id, after]) => [Number(id), Number(after)])),
  };
}
