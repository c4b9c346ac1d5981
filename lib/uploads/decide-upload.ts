import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { payoutNeedsApproval } from '../approvals/approval-thresholds';
import { approveRequest, rejectRequest } from '../approvals/decide-approval';
import { requestUploadApproval, type UploadCardDebit } from '../approvals/request-upload-approval';
import { requestAccounts } from '../approvals/request-money';
import { recordAudit } from '../audit';
import type { Db, DbOrTx, Tx } from '../db/client';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { heldAccountId } from '../ledger/accounts';
import type { Currency, Mode } from '../validation';
import type { UploadTotals } from './preview-upload';
import { markDoneIfNothingLeft } from './upload-decided';
import { releaseUploadRemainder, rowDebit } from './upload-holds';
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
  file_name: string;
  totals: UploadTotals;
  approval_reference: string | null;
}

const notFound = () => new ServiceError('not_found', 'No upload with this reference belongs to your business.');

/** The job, locked for its decision when `tx` is a transaction: two clicks, or a start and a cancel, decide it once. */
async function readJob(tx: DbOrTx, opts: UploadDecisionOptions, kind?: UploadKind, lock = true): Promise<JobRow> {
  if (!isUploadReference(opts.reference)) throw notFound();
  const { rows } = await tx.execute<JobRow & Record<string, unknown>>(sql`
    SELECT id, kind, status, created_by, file_name, totals, approval_reference FROM upload_jobs
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND reference = ${opts.reference} ${lock ? sql`FOR UPDATE` : sql``}`);
  const job = rows[0];
  if (!job || (kind && job.kind !== kind)) throw notFound();
  return { ...job, id: Number(job.id) };
}

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

/**
 * What each source card's rows debit together, as each row was quoted at preview (its amount, and its fee when
 * the card pays it): what the approval request holds. A card gone since the preview holds nothing; its rows fail when they run.
 */
async function debitsByCard(tx: Tx, opts: UploadDecisionOptions, jobId: number): Promise<UploadCardDebit[]> {
  const { rows } = await tx.execute<{ input: Record<string, unknown>; amount: number; fee: number }>(sql`
    SELECT input, amount, fee FROM upload_rows WHERE job_id = ${jobId} AND status = 'pending' ORDER BY row_number`);
  const debits = new Map<string, number>();
  for (const row of rows) {
    const { cardNumber, debit } = rowDebit(row);
    debits.set(cardNumber, (debits.get(cardNumber) ?? 0) + debit);
  }
  if (debits.size === 0) return [];
  const { rows: cards } = await tx.execute<{ id: number; card_number: string; account_id: number; currency: Currency }>(sql`
    SELECT id, card_number, account_id, currency FROM cards
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND cancelled_at IS NULL
      AND card_number = ANY(${`{${[...debits.keys()].map((n) => JSON.stringify(n)).join(',')}}`}::text[])`);
  return cards.map((c) => ({
    cardId: Number(c.id),
    cardNumber: c.card_number,
    accountId: Number(c.account_id),
    currency: c.currency,
    debit: debits.get(c.card_number)!,
  }));
}

/**
 * Starts a previewed upload (its uploader only): its valid rows run in the background, or, for payouts over the
 * approval threshold, it becomes an approval request that holds each source card's money until it is decided.
 */
export async function startUpload(db: Db, opts: UploadDecisionOptions & { kind: UploadKind }): Promise<{ status: string }> {
  // The held accounts an approval request may need: shared accounts are resolved before the transaction.
  const seen = await readJob(db, opts, opts.kind, false);
  const heldAccounts: Partial<Record<Currency, number>> = {};
  if (seen.kind === 'payouts' && seen.status === 'previewed') {
    for (const currency of Object.keys(seen.totals) as Currency[]) heldAccounts[currency] = await heldAccountId(db, opts.businessId, opts.mode, currency);
  }
  return inTransaction(db, async (tx) => {
    const job = await readJob(tx, opts, opts.kind);
    if (job.status !== 'previewed') throw alreadyDecided(job.status);
    // The uploader starts: anyone else starting it could then approve it as the "second" person.
    if (job.created_by !== opts.userId) throw new ServiceError('forbidden', 'Only the teammate who uploaded this file can start it.');
    if (!(await needsApproval(tx, opts, job))) {
      await tx.execute(sql`UPDATE upload_jobs SET status = 'running', started_at = now() WHERE id = ${job.id}`);
      await markDoneIfNothingLeft(tx, job.id);
      await audit(tx, opts, 'upload.started', { kind: job.kind });
      return { status: 'running' };
    }
    const request = await requestUploadApproval(tx, {
      businessId: opts.businessId,
      mode: opts.mode,
      makerUserId: opts.userId,
      upload: { reference: opts.reference, fileName: job.file_name, totals: job.totals },
      cards: await debitsByCard(tx, opts, job.id),
      heldAccounts,
    });
    await tx.execute(sql`
      UPDATE upload_jobs SET status = 'awaiting_approval', expires_at = ${request.expiresAt.toISOString()}::timestamptz, approval_reference = ${request.reference}
      WHERE id = ${job.id}`);
    return { status: 'awaiting_approval' };
  });
}

/** The approval request of a waiting upload; decided through lib/approvals like any other. */
async function waitingRequest(db: Db, opts: UploadDecisionOptions, kind?: UploadKind): Promise<string> {
  const job = await readJob(db, opts, kind, false);
  if (job.status !== 'awaiting_approval' || !job.approval_reference) throw alreadyDecided(job.status);
  return job.approval_reference;
}

/** A second person (never the uploader) approves a waiting payout upload's request: its money is released and it runs. */
export async function approveUpload(db: Db, opts: UploadDecisionOptions): Promise<{ status: string }> {
  const reference = await waitingRequest(db, opts, 'payouts');
  const decision = await approveRequest(db, { businessId: opts.businessId, mode: opts.mode, userId: opts.userId, reference });
  if (decision.status === 'failed') throw new ServiceError('already_decided', `This upload could not start: ${decision.failureReason}`);
  return { status: 'running' };
}

/**
 * Ends an upload that has not finished: a waiting one rejected by a second
 * person or withdrawn by its uploader (its approval request's decision, which
 * releases its money), or a running one stopped by its uploader. Rows not yet
 * run are cancelled; a chunk the runner is on commits only while its rows are
 * still pending, so none runs after this.
 */
export async function cancelUpload(db: Db, opts: UploadDecisionOptions & { asApprover: boolean }): Promise<{ status: string }> {
  const seen = await readJob(db, opts, undefined, false);
  if (opts.asApprover || seen.status === 'awaiting_approval') {
    if (!opts.asApprover && seen.created_by !== opts.userId) throw new ServiceError('forbidden', 'Only the teammate who uploaded this file can cancel it.');
    const reference = await waitingRequest(db, opts);
    await rejectRequest(db, { businessId: opts.businessId, mode: opts.mode, userId: opts.userId, reference, asMaker: !opts.asApprover });
    return { status: 'cancelled' };
  }
  // A running upload that was approved still holds the money of its rows not yet run: it goes back with them.
  const scope = seen.approval_reference ? { businessId: opts.businessId, mode: opts.mode, approvalReference: seen.approval_reference } : null;
  const accounts = seen.approval_reference
    ? await requestAccounts(db, { business_id: opts.businessId, mode: opts.mode, reference: seen.approval_reference, currency: null })
    : null;
  return inTransaction(db, async (tx) => {
    const job = await readJob(tx, opts);
    if (job.status === 'done' || job.status === 'cancelled' || job.status === 'expired') throw alreadyDecided(job.status);
    if (job.status === 'awaiting_approval') throw new ServiceError('already_decided', 'This upload is waiting for approval now; load its page again.');
    if (job.created_by !== opts.userId) throw new ServiceError('forbidden', 'Only the teammate who uploaded this file can cancel it.');
    await tx.execute(sql`UPDATE upload_rows SET status = 'cancelled', finished_at = now() WHERE job_id = ${job.id} AND status = 'pending'`);
    await tx.execute(
      sql`UPDATE upload_jobs SET status = 'cancelled', finished_at = now(), decided_by = coalesce(decided_by, ${opts.userId}) WHERE id = ${job.id}`,
    );
    if (scope && accounts) await releaseUploadRemainder(tx, { ...scope, accounts });
    await audit(tx, opts, 'upload.cancelled', { kind: job.kind });
    return { status: 'cancelled' };
  });
}
