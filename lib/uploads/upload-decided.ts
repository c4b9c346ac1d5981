import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client';
import { ServiceError } from '../errors';
import type { Mode } from '../validation';

/** A payout upload's approval request, as its decision reaches the upload (lib/approvals/approval-operations.ts). */
export interface UploadDecidedOptions {
  businessId: number;
  mode: Mode;
  /** The approval request's reference, kept on the job when it started waiting. */
  approvalReference: string;
  decidedBy: number | null;
}

/** A running job with no pending row left is done (also one started with every row invalid). */
export async function markDoneIfNothingLeft(db: DbOrTx, jobId: number): Promise<boolean> {
  const { rows } = await db.execute(sql`
    UPDATE upload_jobs SET status = 'done', finished_at = now()
    WHERE id = ${jobId} AND status = 'running' AND NOT EXISTS (SELECT 1 FROM upload_rows WHERE job_id = ${jobId} AND status = 'pending')
    RETURNING 1`);
  return rows.length > 0;
}

/** Approved: the job runs, in the approval's transaction (which claimed the request; its holds stay until each row runs). Answers the upload's reference. */
export async function uploadApproved(tx: Tx, opts: UploadDecidedOptions): Promise<{ reference: string }> {
  const { rows } = await tx.execute<{ id: number; reference: string }>(sql`
    UPDATE upload_jobs SET status = 'running', decided_by = ${opts.decidedBy}, started_at = now()
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND approval_reference = ${opts.approvalReference} AND status = 'awaiting_approval'
    RETURNING id, reference`);
  if (!rows[0]) throw new ServiceError('already_decided', 'This upload is no longer waiting for approval.');
  await markDoneIfNothingLeft(tx, Number(rows[0].id));
  return { reference: rows[0].reference };
}

/** Rejected, withdrawn, expired or failed: the job ends and its rows are cancelled, never to run (its holds are released by the caller). */
export async function uploadEnded(tx: Tx, opts: UploadDecidedOptions & { status: 'cancelled' | 'expired' }): Promise<void> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    UPDATE upload_jobs SET status = ${opts.status}, finished_at = now(), decided_by = coalesce(decided_by, ${opts.decidedBy})
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND approval_reference = ${opts.approvalReference} AND status = 'awaiting_approval'
    RETURNING id`);
  for (const job of rows) {
    await tx.execute(sql`UPDATE upload_rows SET status = 'cancelled', finished_at = now() WHERE job_id = ${Number(job.id)} AND status = 'pending'`);
  }
}
