import { sql } from 'drizzle-orm';
import { backgroundLoop, type Stop } from '../background-loop';
import type { Db, DbOrTx } from '../db/client';
import { pgCode } from '../db/transaction';

/** The lists whose rows history_totals sums. */
export type HistoryList = 'payouts' | 'payments';

const CHANGE: Record<HistoryList, string> = { payouts: 'payout_history_change', payments: 'payment_history_change' };
const BATCH = 10_000;
const EVERY_MS = 1_000;
// Writers queue behind a fold waiting for its lock: give up soon and try at the next pass rather than hold them up.
const LOCK_WAIT = '50ms';

/** The id through which the list's rows are in history_totals; later rows are summed from the list itself. */
export async function foldedThrough(db: DbOrTx, list: HistoryList): Promise<number> {
  const r = await db.execute<{ id: number }>(sql`SELECT folded_through AS id FROM history_folds WHERE list = ${list}`);
  return Number(r.rows[0]?.id ?? 0);
}

/**
 * The greatest id of the list once no writer of it is in flight: every row at
 * or below it is committed or gone for good, and rows written later get
 * greater ids. The lock only waits out the writers in flight (new ones queue
 * behind it meanwhile) and is let go at once; null when they take longer than
 * LOCK_WAIT, for the next pass to try again.
 */
async function settledThrough(db: Db, list: HistoryList): Promise<number | null> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`));
      await tx.execute(sql`LOCK TABLE ${sql.identifier(list)} IN SHARE MODE`);
      const r = await tx.execute<{ id: number | null }>(sql`SELECT max(id) AS id FROM ${sql.identifier(list)}`);
      return r.rows[0].id === null ? null : Number(r.rows[0].id);
    });
  } catch (err) {
    if (pgCode(err) === '55P03') return null;
    throw err;
  }
}

/**
 * Adds up to `batch` settled rows past the list's fold mark to history_totals
 * and moves the mark past them; answers whether more are waiting. Inserts go
 * on meanwhile; an update or delete of the list waits in its trigger for the
 * mark (the fold holds it), so each change counts once: by the fold, which
 * reads the row as it is, or by the trigger, which sees the new mark.
 */
export async function foldHistoryTotals(db: Db, list: HistoryList, batch = BATCH): Promise<boolean> {
  const table = sql.identifier(list);
  const waiting = await db.execute<{ waiting: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM ${table} WHERE id > (SELECT folded_through FROM history_folds WHERE list = ${list})) AS waiting`);
  if (!waiting.rows[0].waiting) return false;
  const settled = await settledThrough(db, list);
  if (settled === null) return false;
  return db.transaction(async (tx) => {
    const mark = await tx.execute<{ id: number }>(sql`SELECT folded_through AS id FROM history_folds WHERE list = ${list} FOR UPDATE`);
    const from = Number(mark.rows[0].id);
    const next = await tx.execute<{ through: number | null; rows: number }>(sql`
      SELECT max(id) AS through, count(*)::int AS rows FROM (SELECT id FROM ${table} WHERE id > ${from} AND id <= ${settled} ORDER BY id LIMIT ${batch}) b`);
    const { through, rows } = next.rows[0];
    if (through === null) return false;
    await tx.execute(sql`
      SELECT history_totals_apply(${list}, ARRAY(SELECT ${sql.raw(CHANGE[list])}(t, 1) FROM ${table} t WHERE t.id > ${from} AND t.id <= ${through}))`);
    await tx.execute(sql`UPDATE history_folds SET folded_through = ${through} WHERE list = ${list}`);
    return rows === batch;
  });
}

/** Folds until every row written before the call is folded (after a bulk load, say); waits out a busy lock. */
export async function foldAll(db: Db, list: HistoryList): Promise<void> {
  const table = sql.identifier(list);
  const r = await db.execute<{ id: number | null }>(sql`SELECT max(id) AS id FROM ${table}`);
  const last = Number(r.rows[0].id ?? 0);
  for (;;) {
    if (await foldHistoryTotals(db, list)) continue;
    const left = await db.execute<{ left: boolean }>(sql`
      SELECT EXISTS (SELECT 1 FROM ${table} WHERE id <= ${last} AND id > (SELECT folded_through FROM history_folds WHERE list = ${list})) AS left`);
    if (!left.rows[0].left) return;
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
