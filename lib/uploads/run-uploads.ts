import { sql } from 'drizzle-orm';
import { backgroundLoop, type Stop } from '../background-loop';
import type { Db, Tx } from '../db/client';
import { withCommitHook } from '../db/commit-hooks';
import { ServiceError } from '../errors';
import { forgetSharedAccounts } from '../ledger/accounts';
import { logger } from '../observability/logger';
import type { Mode } from '../validation';
import { markDoneIfNothingLeft } from './decide-upload';
import { errorText, UPLOAD_KINDS, type UploadKind } from './upload-kinds';

/** Rows claimed per pass; each is its own transaction, so a claim holds nothing locked while it runs. */
const CLAIM_ROWS = 20;
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
}

/** The claim was taken over (or the job cancelled) before this runner committed: its transaction rolls back. */
class ClaimLost extends Error {}

/**
 * Claims a few pending rows of running jobs (FOR UPDATE SKIP LOCKED: any number
 * of app instances share the work) and runs each through its single-item core.
 * True while there may be more to do.
 */
export async function runUploadPass(db: Db): Promise<boolean> {
  const { rows } = await db.execute<ClaimedRow & Record<string, unknown>>(sql`
    WITH picked AS (
      SELECT r.job_id, r.row_number FROM upload_rows r JOIN upload_jobs j ON j.id = r.job_id
      WHERE j.status = 'running' AND r.status = 'pending'
        AND (r.claimed_at IS NULL OR r.claimed_at < now() - make_interval(secs => ${CLAIM_TIMEOUT_MS / 1000}))
      ORDER BY r.job_id, r.row_number
      LIMIT ${CLAIM_ROWS}
      FOR UPDATE OF r SKIP LOCKED
    )
    UPDATE upload_rows u SET claim = gen_random_uuid(), claimed_at = now(), attempts = u.attempts + 1
    FROM picked, upload_jobs j
    WHERE u.job_id = picked.job_id AND u.row_number = picked.row_number AND j.id = u.job_id
    RETURNING u.job_id, u.row_number, u.input, u.claim, u.attempts, j.kind, j.business_id, j.mode, j.created_by`);
  const jobs = new Set<number>();
  for (const row of rows) {
    jobs.add(Number(row.job_id));
    await runRow(db, { ...row, job_id: Number(row.job_id) });
  }
  for (const id of jobs) await markDoneIfNothingLeft(db, id);
  return rows.length === CLAIM_ROWS;
}

const ours = (row: ClaimedRow) => sql`job_id = ${row.job_id} AND row_number = ${row.row_number} AND claim = ${row.claim}`;

/**
 * One row, run exactly once: every transaction the core commits marks the row
 * succeeded inside that same transaction, and only while the row is still
 * pending under this claim. So a crash before the commit leaves the row pending
 * (run again later, nothing done yet) and a crash after it leaves it succeeded
 * (never run again).
 */
async function runRow(db: Db, row: ClaimedRow): Promise<void> {
  const def = UPLOAD_KINDS[row.kind];
  const markSucceeded = async (tx: Tx, committed: unknown) => {
    const { rows } = await tx.execute(sql`
      UPDATE upload_rows SET status = 'succeeded', result_reference = coalesce(result_reference, ${def.referenceOf(committed)}), finished_at = now()
      WHERE ${ours(row)} AND status IN ('pending', 'succeeded') RETURNING 1`);
    if (rows.length === 0) throw new ClaimLost();
  };
  try {
    await withCommitHook(markSucceeded, () =>
      def.run(db, { businessId: row.business_id, mode: row.mode, actor: { type: 'user', id: String(row.created_by) } }, row.input),
    );
  } catch (err) {
    if (err instanceof ClaimLost) {
      // The rolled-back transaction may have created a shared account the process now remembers.
      forgetSharedAccounts();
      return;
    }
    if (err instanceof ServiceError) {
      // A refusal after the commit (a bank rail refusing, its debit reversed) fails the row but keeps the reference it made.
      await failRow(db, row, err.code, errorText(err));
      return;
    }
    logger.error({ err }, `upload runner: row ${row.row_number} of job ${row.job_id} failed`);
    if (row.attempts >= MAX_ATTEMPTS) {
      await failRow(db, row, 'internal', 'Internal server error: the row could not be run; nothing was moved for it.', false);
    }
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
