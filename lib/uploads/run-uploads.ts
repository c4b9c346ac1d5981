import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { backgroundLoop, type Stop } from '../background-loop';
import { ITEMS_PER_COMMIT } from '../batches/batch-limits';
import type { Db, Tx } from '../db/client';
import { inTransaction } from '../db/transaction';
import { withCommitHook } from '../db/commit-hooks';
import { ServiceError } from '../errors';
import { forgetSharedAccounts, heldAccountId } from '../ledger/accounts';
import { logger } from '../observability/logger';
import type { Mode } from '../validation';
import { markDoneIfNothingLeft } from './upload-decided';
import { releaseRowsShare, releaseUploadRemainder, rowDebit } from './upload-holds';
import { requestAccounts } from '../approvals/request-money';
import { errorText, UPLOAD_KINDS, type UploadKind } from './upload-kinds';

/** Rows claimed per pass, of one job, in file order: one chunk of the batch engine, one transaction. */
const CLAIM_ROWS = ITEMS_PER_COMMIT;
/** A claim older than this belongs to a runner that died: its rows are claimed again (a live runner's late commit is then refused). */
const CLAIM_TIMEOUT_MS = Number(process.env.UPLOAD_CLAIM_TIMEOUT_MS ?? 30_000);
/** A row whose run failed unexpectedly this many times is failed rather than tried for ever. */
const MAX_ATTEMPTS = 3;

interface ClaimedRow {
  job_id: number;
  row_number: number;
  input: Record<string, unknown>;
  claim: string;
  attempts: number;
  kind: UploadKind;
  business_id: number;
  mode: Mode;
  created_by: number;
  /** The approval request that held the rows' money (a payout upload over the threshold), else null. */
  approval_reference: string | null;
  amount: string | null;
  fee: string | null;
}

/** The claim was taken over (or the job cancelled) before this runner committed: its transaction rolls back. */
class ClaimLost extends Error {}

/**
 * Claims the next pending rows of one running job, in file order (FOR UPDATE
 * SKIP LOCKED: any number of app instances share the work), and runs them as
 * one chunk of the batch engine the API's batch calls use. True while there
 * may be more to do.
 */
export async function runUploadPass(db: Db): Promise<boolean> {
  const claimable = sql`r.status = 'pending' AND (r.claimed_at IS NULL OR r.claimed_at < now() - make_interval(secs => ${CLAIM_TIMEOUT_MS / 1000}))`;
  const { rows } = await db.execute<ClaimedRow & Record<string, unknown>>(sql`
    WITH next_job AS (
      SELECT r.job_id FROM upload_rows r JOIN upload_jobs j ON j.id = r.job_id
      WHERE j.status = 'running' AND ${claimable} ORDER BY r.job_id, r.row_number LIMIT 1 FOR UPDATE OF r SKIP LOCKED
    ), picked AS (
      SELECT r.job_id, r.row_number FROM upload_rows r
      WHERE r.job_id = (SELECT job_id FROM next_job) AND ${claimable}
      ORDER BY r.row_number LIMIT ${CLAIM_ROWS} FOR UPDATE SKIP LOCKED
    )
    UPDATE upload_rows u SET claim = ${randomUUID()}, claimed_at = now(), attempts = u.attempts + 1
    FROM picked, upload_jobs j
    WHERE u.job_id = picked.job_id AND u.row_number = picked.row_number AND j.id = u.job_id
    RETURNING u.job_id, u.row_number, u.input, u.claim, u.attempts, u.amount, u.fee, j.kind, j.business_id, j.mode, j.created_by, j.approval_reference`);
  if (rows.length === 0) {
    await finishStranded(db);
    return false;
  }
  const claimed = rows.map((r) => ({ ...r, job_id: Number(r.job_id), row_number: Number(r.row_number) })).sort((a, b) => a.row_number - b.row_number);
  await runChunk(db, claimed);
  await finishIfNothingLeft(db, claimed[0]);
  return rows.length === CLAIM_ROWS;
}

/**
 * Running jobs with no pending row left whose runner stopped between its last chunk's commit and the job's end
 * (a crash, a failed read): ended here, so what their approval still holds goes back. Ending is one conditional
 * update, so two runners finishing the same job release its remainder once.
 */
async function finishStranded(db: Db): Promise<void> {
  const { rows } = await db.execute<Pick<ClaimedRow, 'job_id' | 'business_id' | 'mode' | 'approval_reference'> & Record<string, unknown>>(sql`
    SELECT j.id AS job_id, j.business_id, j.mode, j.approval_reference FROM upload_jobs j
    WHERE j.status = 'running' AND NOT EXISTS (SELECT 1 FROM upload_rows r WHERE r.job_id = j.id AND r.status = 'pending')
    LIMIT 10`);
  for (const job of rows) await finishIfNothingLeft(db, { ...job, job_id: Number(job.job_id) });
}

/** The job is done once no row is pending; what its approval still holds (rows that failed without running) goes back with that. */
async function finishIfNothingLeft(db: Db, row: Pick<ClaimedRow, 'job_id' | 'business_id' | 'mode' | 'approval_reference'>): Promise<void> {
  if (!row.approval_reference) {
    await markDoneIfNothingLeft(db, row.job_id);
    return;
  }
  const scope = { businessId: row.business_id, mode: row.mode, approvalReference: row.approval_reference };
  const accounts = await requestAccounts(db, { business_id: row.business_id, mode: row.mode, reference: row.approval_reference, currency: null });
  await inTransaction(db, async (tx) => {
    if (await markDoneIfNothingLeft(tx, row.job_id)) await releaseUploadRemainder(tx, { ...scope, accounts });
  });
}

/**
 * The hook that gives back, in a chunk's transaction, what the upload's approval held for the chunk's rows (each
 * item is matched to its row by identity), and the held accounts it moves, for the chunk to lock with its cards;
 * none for an upload that held nothing.
 */
async function releaseHeldShares(
  db: Db,
  rows: ClaimedRow[],
  items: unknown[],
): Promise<{ beforeEachChunk?: (tx: Tx, chunk: unknown[]) => Promise<void>; lockAlso?: number[] }> {
  const first = rows[0];
  if (!first.approval_reference || first.kind !== 'payouts') return {};
  const shares = new Map(items.map((item, k) => [item, rowDebit({ input: rows[k].input, amount: rows[k].amount ?? 0, fee: rows[k].fee })]));
  const scope = { businessId: first.business_id, mode: first.mode, approvalReference: first.approval_reference };
  const accounts = await requestAccounts(db, { business_id: first.business_id, mode: first.mode, reference: first.approval_reference, currency: null });
  const lockAlso = await Promise.all([...accounts.keys()].map((c) => heldAccountId(db, first.business_id, first.mode, c)));
  return {
    lockAlso,
    beforeEachChunk: (tx, chunk) =>
      releaseRowsShare(
        tx,
        { ...scope, accounts },
        chunk.flatMap((item) => shares.get(item) ?? []),
      ),
  };
}

const ours = (row: ClaimedRow) => sql`job_id = ${row.job_id} AND row_number = ${row.row_number} AND claim = ${row.claim}`;

/**
 * Rows run exactly once: the chunk's transaction marks its rows with their
 * outcomes (read from the record the batch engine returns for the chunk, the
 * one the API batch resumes from), inside that same transaction and only
 * while they are still pending under this claim. So a crash before the commit
 * leaves them pending (run again later, nothing done yet) and a crash after
 * it leaves them done (never run again).
 */
async function runChunk(db: Db, claimed: ClaimedRow[]): Promise<void> {
  const def = UPLOAD_KINDS[claimed[0].kind];
  const rows: ClaimedRow[] = [];
  const items: unknown[] = [];
  for (const row of claimed) {
    try {
      items.push(def.parse(row.input));
      rows.push(row);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      await failRow(db, row, err.code, errorText(err));
    }
  }
  if (rows.length === 0) return;
  const markCommitted = async (tx: Tx, result: unknown) => {
    const outcomes = def.committed(result);
    if (!outcomes) return;
    if (outcomes.length !== rows.length) throw new Error(`upload runner: a chunk of ${rows.length} rows committed ${outcomes.length} outcomes`);
    const marks = outcomes.map((o, k) =>
      'error' in o
        ? { row_number: rows[k].row_number, code: o.error.code, message: errorText(o.error) }
        : { row_number: rows[k].row_number, reference: o.reference ?? null, payout_id: o.payoutId ?? null },
    );
    const { rows: marked } = await tx.execute(sql`
      UPDATE upload_rows u SET status = CASE WHEN o.code IS NULL THEN 'succeeded' ELSE 'failed' END,
        result_reference = coalesce(o.reference, (SELECT p.reference FROM payouts p WHERE p.id = o.payout_id)),
        error_code = o.code, error_message = o.message, finished_at = now()
      FROM jsonb_to_recordset(${JSON.stringify(marks)}::jsonb) AS o(row_number int, reference text, payout_id bigint, code text, message text)
      WHERE u.job_id = ${rows[0].job_id} AND u.row_number = o.row_number AND u.claim = ${rows[0].claim} AND u.status = 'pending'
      RETURNING 1`);
    if (marked.length !== rows.length) throw new ClaimLost();
  };
  const { business_id: businessId, mode, created_by: uploader } = rows[0];
  const held = await releaseHeldShares(db, rows, items);
  let results: Awaited<ReturnType<typeof def.runBatch>>;
  try {
    results = await withCommitHook(markCommitted, () => def.runBatch(db, { businessId, mode, actor: { type: 'user', id: String(uploader) }, ...held }, items));
  } catch (err) {
    if (err instanceof ClaimLost) {
      // The rolled-back transaction may have created a shared account the process now remembers.
      forgetSharedAccounts();
      return;
    }
    // One row the engine cannot run must not hold back the others: each is tried alone.
    if (rows.length > 1) {
      for (const row of rows) await runChunk(db, [row]);
      return;
    }
    logger.error({ err }, `upload runner: row ${rows[0].row_number} of job ${rows[0].job_id} failed`);
    if (rows[0].attempts >= MAX_ATTEMPTS) {
      await failRow(db, rows[0], 'internal', 'Internal server error: the row could not be run; nothing was moved for it.', false);
    }
    return;
  }
  // A refusal after the commit (a bank rail refusing, its debit reversed) fails the row but keeps the reference it made.
  for (const [k, result] of results.entries()) {
    if (!result.ok) await failRow(db, rows[k], result.error.code, errorText(result.error));
  }
}

/** A refusal fails a row even after its commit (its effect then undone by the core); an unexpected error only one that made nothing. */
async function failRow(db: Db, row: ClaimedRow, code: string, message: string, evenIfCommitted = true) {
  await db.execute(sql`
    UPDATE upload_rows SET status = 'failed', error_code = ${code}, error_message = ${message}, finished_at = now()
    WHERE ${ours(row)} AND (status = 'pending' OR (${evenIfCommitted} AND status = 'succeeded'))`);
}

export function startUploadRunner(db: Db): Stop {
  return backgroundLoop('upload runner', 500, () => runUploadPass(db));
}
