import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db, DbOrTx, Tx } from '../db/client';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { forgetSharedAccounts } from '../ledger/accounts';
import type { Mode } from '../validation';
import { ENDINGS, OPERATIONS } from './approval-operations';
import type { ApprovalKind, ApprovalRow, ApprovalStatus } from './approval-request';
import { bankRailFor } from '../providers/provider-registry';
import { sendRefundNow } from '../refunds/send-refunds';
import { logger } from '../observability/logger';
import { releaseRequestMoney, requestAccounts, type RequestAccounts } from './request-money';

export interface DecideApprovalOptions {
  businessId: number;
  mode: Mode;
  reference: string;
  userId: number;
  note?: string | null;
}

export interface RejectApprovalOptions extends DecideApprovalOptions {
  /** The maker withdrawing their own request (rather than an approver refusing someone else's). */
  asMaker: boolean;
}

export interface ApprovalDecision {
  reference: string;
  status: ApprovalStatus;
  /** The payout's reference, or the adjustment's, once approved. */
  resultReference: string | null;
  /** Why the approved operation was refused (status failed). */
  failureReason: string | null;
}

/** The operation refused on approval: the request fails and its money is released. */
class OperationRefused extends Error {
  constructor(readonly cause: ServiceError) {
    super(cause.message);
  }
}

const userActor = (userId: number): Actor => ({ type: 'user', id: String(userId) });

async function findRequest(db: DbOrTx, opts: DecideApprovalOptions): Promise<ApprovalRow | undefined> {
  const { rows } = await db.execute<ApprovalRow & Record<string, unknown>>(sql`
    SELECT * FROM approval_requests WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND reference = ${opts.reference}`);
  return rows[0];
}

/** Why a request could not be claimed, once the conditional update found nothing. */
async function whyNotClaimed(tx: DbOrTx, opts: DecideApprovalOptions, makerMayDecide: boolean): Promise<ServiceError> {
  const row = await findRequest(tx, opts);
  if (!row) return new ServiceError('not_found', 'No approval request with this reference belongs to your business.');
  if (row.status !== 'awaiting_approval') return new ServiceError('already_decided', `This request is already ${row.status.replace('_', ' ')}.`);
  if (new Date(row.expires_at) <= new Date()) return new ServiceError('already_decided', 'This request has expired; its money is being released.');
  if (makerMayDecide) return new ServiceError('forbidden', 'Only the teammate who asked can withdraw this request.');
  return new ServiceError('forbidden', 'You asked for this yourself: another teammate must decide it.');
}

/**
 * Claims a waiting request for one decision with a conditional update: of two
 * approvers, an approver and a rejecter, or a decision and the expiry sweep,
 * exactly one finds it still awaiting approval. An approver never claims their
 * own request; a maker claims only their own (to withdraw it).
 */
async function claim(tx: Tx, opts: DecideApprovalOptions, status: ApprovalStatus, asMaker: boolean): Promise<ApprovalRow> {
  const who = asMaker ? sql`maker_user_id = ${opts.userId}` : sql`maker_user_id <> ${opts.userId}`;
  const { rows } = await tx.execute<ApprovalRow & Record<string, unknown>>(sql`
    UPDATE approval_requests SET status = ${status}, decided_by = ${opts.userId}, decided_at = now(), decision_note = ${opts.note?.trim() || null}
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND reference = ${opts.reference}
      AND status = 'awaiting_approval' AND expires_at > now() AND ${who}
    RETURNING *`);
  if (!rows[0]) throw await whyNotClaimed(tx, opts, asMaker);
  return rows[0];
}

async function accountsFor(db: Db, opts: DecideApprovalOptions): Promise<RequestAccounts> {
  const row = await findRequest(db, opts);
  if (!row) throw new ServiceError('not_found', 'No approval request with this reference belongs to your business.');
  // Where a hold of a card cancelled meanwhile goes, and what an adjustment moves against: resolved outside the transaction, as shared accounts always are.
  return requestAccounts(db, row);
}

/**
 * Approves someone else's request: in one database transaction the request is
 * claimed, its hold released and the operation run (the payout through
 * createPayout, the adjustment's posting), so the released money cannot be
 * taken by anything else in between. When the operation refuses (the card
 * was disabled meanwhile, the fee grew past the balance), that transaction
 * rolls back and a second one marks the request failed with the reason and
 * releases its money.
 */
export async function approveRequest(db: Db, opts: DecideApprovalOptions): Promise<ApprovalDecision> {
  const accounts = await accountsFor(db, opts);
  const actor = userActor(opts.userId);
  let kind: ApprovalKind | undefined;
  try {
    const decided = await inTransaction(db, async (tx) => {
      const request = await claim(tx, opts, 'approved', false);
      kind = request.kind;
      // An upload's holds stay: each row's share goes back in the transaction that runs the row (lib/uploads/upload-holds.ts).
      const released = request.kind === 'upload' || (await releaseRequestMoney(tx, request, actor, accounts));
      // Its money is no longer held (the card expired and its holds went with it): nothing may be paid on it.
      if (!released) throw new OperationRefused(new ServiceError('card_disabled', 'The money this request held is no longer held: the card expired.'));
      let result: { reference: string };
      try {
        result = await OPERATIONS[request.kind](tx, request, { businessAccountId: request.currency ? (accounts.get(request.currency) ?? 0) : 0 });
      } catch (err) {
        throw err instanceof ServiceError ? new OperationRefused(err) : err;
      }
      await tx.execute(sql`UPDATE approval_requests SET result_reference = ${result.reference} WHERE id = ${request.id}`);
      await audit(tx, request, actor, 'approval.approved', { result_reference: result.reference, note: opts.note?.trim() || null });
      return { reference: request.reference, status: 'approved' as const, resultReference: result.reference, failureReason: null };
    });
    if (kind) await sendAfterCommit(db, opts.mode, kind, decided.resultReference);
    return decided;
  } catch (err) {
    // The rolled-back transaction may have created a shared account the process now remembers.
    forgetSharedAccounts();
    if (!(err instanceof OperationRefused)) throw err;
    return failRequest(db, opts, accounts, err.cause);
  }
}

async function failRequest(db: Db, opts: DecideApprovalOptions, accounts: RequestAccounts, refusal: ServiceError): Promise<ApprovalDecision> {
  const reason = typeof refusal.detail === 'string' ? `${refusal.title}: ${refusal.detail}` : refusal.title;
  const actor = userActor(opts.userId);
  return inTransaction(db, async (tx) => {
    const request = await claim(tx, opts, 'failed', false);
    await tx.execute(sql`UPDATE approval_requests SET failure_reason = ${reason} WHERE id = ${request.id}`);
    await releaseRequestMoney(tx, request, actor, accounts);
    await ENDINGS[request.kind]?.(tx, request, 'failed');
    await audit(tx, request, actor, 'approval.failed', { reason });
    return { reference: request.reference, status: 'failed' as const, resultReference: null, failureReason: reason };
  });
}

/** Rejects a request (an approver other than the maker), or withdraws it (the maker): its money is released. */
export async function rejectRequest(db: Db, opts: RejectApprovalOptions): Promise<ApprovalDecision> {
  const accounts = await accountsFor(db, opts);
  const actor = userActor(opts.userId);
  return inTransaction(db, async (tx) => {
    const request = await claim(tx, opts, 'rejected', opts.asMaker);
    await releaseRequestMoney(tx, request, actor, accounts);
    await ENDINGS[request.kind]?.(tx, request, 'rejected');
    await audit(tx, request, actor, opts.asMaker ? 'approval.withdrawn' : 'approval.rejected', { note: opts.note?.trim() || null });
    return { reference: request.reference, status: 'rejected' as const, resultReference: null, failureReason: null };
  });
}

export async function audit(tx: DbOrTx, r: ApprovalRow, actor: Actor, action: string, details: Record<string, unknown>) {
  await recordAudit(tx, {
    businessId: r.business_id,
    mode: r.mode,
    actor,
    action,
    // An upload's request names no card: its lines tell the upload's story.
    target: r.card_number ?? String(r.options.upload_reference),
    details: { reference: r.reference, kind: r.kind, direction: r.options.direction ?? null, amount: Number(r.amount), currency: r.currency, ...details },
  });
}

/**
 * A live bank payout or refund made by an approval is sent to Chapa only now
 * that the approval has committed: sent from inside it, a rollback (or a retry
 * of the transaction) would leave Chapa paying money our ledger never moved.
 * Whatever this send does not get through, the rail's worker sends.
 */
async function sendAfterCommit(db: Db, mode: Mode, kind: ApprovalKind, reference: string): Promise<void> {
  if (mode !== 'live') return;
  try {
    if (kind === 'payout') await bankRailFor(mode)?.sendQueued?.(db, reference);
    if (kind === 'refund') await sendRefundNow(db, reference);
  } catch (err) {
    logger.error({ err }, `approval: sending ${reference} after commit; the worker retries it`);
  }
}
