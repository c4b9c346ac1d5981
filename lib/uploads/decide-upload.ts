import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { APPROVAL_TTL_MS } from '../approvals/approval-request';
import { payoutNeedsApproval } from '../approvals/approval-thresholds';
import { recordAudit } from '../audit';
import type { DbOrTx, Db, Tx } from '../db/client';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import type { Currency, Mode } from '../validation';
import type { UploadTotals } from './preview-upload';
import type { UploadKind } from './upload-kinds';
import { isUploadReference } from './upload-view';

export interface UploadDecisionOptions {
  businessId: number;
  mode: Mode;
  userId: number;
  reference: string;
}

interface JobRow {
  id: number;
  kind: UploadKind;
  status: string;
  created_by: number;
  totals: UploadTotals;
  /** Awaiting approval past its time: the sweep expires it, and nobody may decide it meanwhile. */
  overdue: boolean;
}

const notFound = () => new ServiceError('not_found', 'No upload with this reference belongs to your business.');

/** The job, locked for its decision: two clicks, or a start and a cancel, decide it once. */
async function lockJob(tx: Tx, opts: UploadDecisionOptions, kind?: UploadKind): Promise<JobRow> {
  if (!isUploadReference(opts.reference)) throw notFound();
  const { rows } = await tx.execute<JobRow & Record<string, unknown>>(sql`
    SELECT id, kind, status, created_by, totals, coalesce(expires_at <= now(), false) AS overdue FROM upload_jobs
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND reference = ${opts.reference} FOR UPDATE`);
  const job = rows[0];
  if (!job || (kind && job.kind !== kind)) throw notFound();
  return { ...job, id: Number(job.id) };
}

const expiredUpload = () =>
  new ServiceError('already_decided', 'This upload waited too long for a second person and has expired; none of its rows will run. Upload the file again.');

const alreadyDecided = (status: string) => new ServiceError('already_decided', `This upload is already ${status.replace('_', ' ')}.`);

async function audit(tx: DbOrTx, opts: UploadDecisionOptions, action: string, details: Record<string, unknown> = {}) {
  const actor: Actor = { type: 'user', id: String(opts.userId) };
  await recordAudit(tx, { businessId: opts.businessId, mode: opts.mode, actor, action, target: opts.reference, details });
}

/** Whether a payout upload waits for a second person: any currency's total at or over that currency's approval threshold (the single payout's rule). */
async function needsApproval(tx: DbOrTx, opts: UploadDecisionOptions, job: JobRow): Promise<boolean> {
  if (job.kind !== 'payouts') return false;
  for (const [currency, t] of Object.entries(job.totals)) {
    if (await payoutNeedsApproval(tx, { businessId: opts.businessId, mode: opts.mode, currency: currency as Currency, amount: t.amount })) return true;
  }
  return false;
}

/** Starts a previewed upload (its uploader only): its valid rows run in the background, or, for payouts over the approval threshold, it waits for a second person. */
export async function startUpload(db: Db, opts: UploadDecisionOptions & { kind: UploadKind }): Promise<{ status: string }> {
  return inTransaction(db, async (tx) => {
    const job = await lockJob(tx, opts, opts.kind);
    if (job.status !== 'previewed') throw alreadyDecided(job.status);
    // The uploader starts: anyone else starting it could then approve it as the "second" person.
    if (job.created_by !== opts.userId) throw new ServiceError('forbidden', 'Only the teammate who uploaded this file can start it.');
    const status = (await needsApproval(tx, opts, job)) ? 'awaiting_approval' : 'running';
    // A waiting upload expires after the time a single payout's approval request waits (the same setting).
    await tx.execute(sql`
      UPDATE upload_jobs SET status = ${status}, started_at = CASE WHEN ${status} = 'running' THEN now() END,
        expires_at = CASE WHEN ${status} = 'awaiting_approval' THEN now() + make_interval(secs => ${APPROVAL_TTL_MS / 1000}) END
      WHERE id = ${job.id}`);
    await markDoneIfNothingLeft(tx, job.id);
    await audit(tx, opts, status === 'running' ? 'upload.started' : 'upload.awaiting_approval', { kind: job.kind });
    return { status };
  });
}

/** A second person (never the uploader) lets a waiting payout upload run. */
export async function approveUpload(db: Db, opts: UploadDecisionOptions): Promise<{ status: string }> {
  return inTransaction(db, async (tx) => {
    const job = await lockJob(tx, opts, 'payouts');
    if (job.status !== 'awaiting_approval') throw alreadyDecided(job.status);
    if (job.overdue) throw expiredUpload();
    if (job.created_by === opts.userId) throw new ServiceError('forbidden', 'You uploaded this file yourself: another teammate must approve it.');
    await tx.execute(sql`UPDATE upload_jobs SET status = 'running', decided_by = ${opts.userId}, started_at = now() WHERE id = ${job.id}`);
    await markDoneIfNothingLeft(tx, job.id);
    await audit(tx, opts, 'upload.approved', { kind: job.kind });
    return { status: 'running' };
  });
}

/**
 * Ends an upload that has not finished: a waiting one rejected by a second
 * person, or one withdrawn or stopped by its uploader. Rows not yet run are
 * cancelled; a row the runner is on commits only while it is still pending, so
 * none runs after this.
 */
export async function cancelUpload(db: Db, opts: UploadDecisionOptions & { asApprover: boolean }): Promise<{ status: string }> {
  return inTransaction(db, async (tx) => {
    const job = await lockJob(tx, opts);
    if (opts.asApprover) {
      if (job.status !== 'awaiting_approval') throw alreadyDecided(job.status);
      if (job.overdue) throw expiredUpload();
      if (job.created_by === opts.userId) throw new ServiceError('forbidden', 'You uploaded this file yourself: cancel it instead.');
    } else {
      if (job.status === 'done' || job.status === 'cancelled' || job.status === 'expired') throw alreadyDecided(job.status);
      if (job.created_by !== opts.userId) throw new ServiceError('forbidden', 'Only the teammate who uploaded this file can cancel it.');
    }
    await tx.execute(sql`UPDATE upload_rows SET status = 'cancelled', finished_at = now() WHERE job_id = ${job.id} AND status = 'pending'`);
    await tx.execute(
      sql`UPDATE upload_jobs SET status = 'cancelled', finished_at = now(), decided_by = coalesce(decided_by, ${opts.userId}) WHERE id = ${job.id}`,
    );
    await audit(tx, opts, opts.asApprover ? 'upload.rejected' : 'upload.cancelled', { kind: job.kind });
    return { status: 'cancelled' };
  });
}

/** A running job with no pending row left is done (also one started with every row invalid). */
export async function markDoneIfNothingLeft(db: DbOrTx, jobId: number): Promise<void> {
  await db.execute(sql`
    UPDATE upload_jobs SET status = 'done', finished_at = now()
    WHERE id = ${jobId} AND status = 'running' AND NOT EXISTS (SELECT 1 FROM upload_rows WHERE job_id = ${jobId} AND status = 'pending')`);
}
