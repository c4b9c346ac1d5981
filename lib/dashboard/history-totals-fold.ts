import { sql } from 'drizzle-orm';
import { backgroundLoop, type Stop } from '../background-loop';
import type { Db, DbOrTx } from '../db/client';
import { pgCode } from '../db/transaction';

/** The lists whose rows history_totals sums. */
export type HistoryList = 'payouts' | 'payments';

const CHANGE: Record<HistoryList, string> = { payouts: 'payout_history_change', payments: 'payment_history_change' };
// The advisory lock a fold holds and the list's update triggers share (history_folded_through, migration 0018).
const MARK_LOCK: Record<HistoryList, number> = { payouts: 1, payments: 2 };
// A change of the list held open this long (an update in a slow transaction) leaves the fold to the next pass.
const MARK_WAIT = '100ms';
const BATCH = 10_000;
const EVERY_MS = 1_000;
// A writer's transaction open longer than this (an operator's session, a bulk load) leaves the fold to the next pass.
const WRITERS_WAIT_MS = 2_000;

/** The id through which the list's rows are in history_totals; later rows are summed from the list itself. */
export async function foldedThrough(db: DbOrTx, list: HistoryList): Promise<number> {
  const r = await db.execute<{ id: number }>(sql`SELECT folded_through AS id FROM history_folds WHERE list = ${list}`);
  // Without its mark every row would be summed from the list on top of the rollup: refuse instead.
  if (r.rows.length === 0) throw new Error(`history_folds has no mark for ${list}`);
  return Number(r.rows[0].id);
}

/** Whether the list has rows past its fold mark (up to `through`, when given). */
async function unfolded(db: Db, list: HistoryList, through?: number): Promise<boolean> {
  const r = await db.execute<{ unfolded: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM ${sql.identifier(list)} WHERE id > (SELECT folded_through FROM history_folds WHERE list = ${list})
                   ${through === undefined ? sql`` : sql`AND id <= ${through}`}) AS unfolded`);
  return r.rows[0].unfolded;
}

/**
 * An id of the list through which every row is committed or gone for good,
 * or null when writers stay in flight past WRITERS_WAIT_MS (the next pass
 * tries again). Ids come from the list's sequence inside an INSERT, which
 * holds a row-exclusive lock on the list until its transaction ends: once the
 * transactions holding that lock after the sequence was read have ended, no
 * id up to what it had handed out can still appear. Only those transactions
 * are waited for, by watching pg_locks, so no insert ever waits on a fold
 * (a table lock would queue every writer behind it, and behind a vacuum).
 * Nothing here prepares transactions (two-phase commit): a prepared one
 * holds no virtual id to watch.
 */
async function settledThrough(db: Db, list: HistoryList): Promise<number | null> {
  const handedOut = await db.execute<{ id: number | null }>(sql`SELECT pg_sequence_last_value(pg_get_serial_sequence(${list}, 'id')::regclass) AS id`);
  const through = handedOut.rows[0].id;
  if (through === null) return null;
  const writers = await db.execute<{ vxid: string }>(sql`
    SELECT virtualtransaction AS vxid FROM pg_locks
    WHERE locktype = 'relation' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND relation = ${list}::regclass AND mode = 'RowExclusiveLock' AND granted AND pid IS DISTINCT FROM pg_backend_pid()`);
  const inFlight = writers.rows.map((r) => r.vxid);
  // pg_locks takes every lock partition while it reads: look again after 5 ms, then less often.
  for (let started = Date.now(), pause = 5; inFlight.length > 0; pause = Math.min(pause * 2, 50)) {
    // A transaction holds the lock on its own virtual id until it ends.
    const running = await db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'virtualxid' AND virtualxid = ANY(${`{${inFlight.join(',')}}`}::text[])`);
    if (running.rows[0].n === 0) break;
    if (Date.now() - started > WRITERS_WAIT_MS) return null;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return Number(through);
}

/**
 * Adds up to `batch` settled rows past the list's fold mark to history_totals
 * and moves the mark past them; answers whether more are waiting. Inserts go
 * on meanwhile. The fold holds the list's mark lock exclusively, and an
 * update or delete of the list takes it shared in its trigger before reading
 * the mark, so each change counts once: by the fold, which reads the row as
 * it is, or by the trigger, which sees the new mark.
 */
export async function foldHistoryTotals(db: Db, list: HistoryList, batch = BATCH): Promise<boolean> {
  const table = sql.identifier(list);
  if (!(await unfolded(db, list))) return false;
  const settled = await settledThrough(db, list);
  if (settled === null) return false;
  return db
    .transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${MARK_WAIT}'`));
      await tx.execute(sql`SELECT pg_advisory_xact_lock(727002, ${MARK_LOCK[list]})`);
      const from = await foldedThrough(tx, list);
      const next = await tx.execute<{ through: number | null; rows: number }>(sql`
      SELECT max(id) AS through, count(*)::int AS rows FROM (SELECT id FROM ${table} WHERE id > ${from} AND id <= ${settled} ORDER BY id LIMIT ${batch}) b`);
      const { through, rows } = next.rows[0];
      if (through === null) return false;
      await tx.execute(sql`
      SELECT history_totals_apply(${list}, ARRAY(SELECT ${sql.raw(CHANGE[list])}(t, 1) FROM ${table} t WHERE t.id > ${from} AND t.id <= ${through}))`);
      await tx.execute(sql`UPDATE history_folds SET folded_through = ${through} WHERE list = ${list}`);
      return rows === batch;
    })
    .catch((err) => {
      if (pgCode(err) === '55P03') return false;
      throw err;
    });
}

/** Folds until every row written before the call is folded (after a bulk load, say); waits out a busy lock. */
export async function foldAll(db: Db, list: HistoryList): Promise<void> {
  const table = sql.identifier(list);
  const r = await db.execute<{ id: number | null }>(sql`SELECT max(id) AS id FROM ${table}`);
  const last = Number(r.rows[0].id ?? 0);
  for (;;) {
    if (await foldHistoryTotals(db, list)) continue;
    if (!(await unfolded(db, list, last))) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Folds both lists every second, and straight on while a backlog (a bulk load) is left. */
export const startHistoryTotalsFolding = (db: Db): Stop =>
  backgroundLoop('history totals folding', EVERY_MS, async () => {
    const payouts = await foldHistoryTotals(db, 'payouts');
    const payments = await foldHistoryTotals(db, 'payments');
    return payouts || payments;
  });
