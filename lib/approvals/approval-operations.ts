import { postAdjustment, type AdjustmentOptions } from '../adjustments/post-adjustment';
import type { Db, Tx } from '../db/client';
import { createPayout } from '../payouts/create-payout';
import { refundPayment } from '../refunds/refund-payment';
import { uploadApproved, uploadEnded } from '../uploads/upload-decided';
import type { ApprovalKind, ApprovalRow } from './approval-request';

interface OperationContext {
  /** The business account of the request's currency (an adjustment moves against it). */
  businessAccountId: number;
}

type Operation = (tx: Tx, request: ApprovalRow, ctx: OperationContext) => Promise<{ reference: string }>;

const makerOf = (r: ApprovalRow) => ({ type: 'user' as const, id: String(r.maker_user_id) });

/**
 * What an approval runs, by kind, inside the approval's database transaction
 * (after the hold is released, before anything else can take the money; an upload keeps its holds).
 */
export const OPERATIONS: Record<ApprovalKind, Operation> = {
  payout: async (tx, r) => {
    // createPayout takes the pool's handle; given the transaction's, every statement it makes joins the approval's transaction.
    const created = await createPayout(tx as unknown as Db, {
      businessId: r.business_id,
      mode: r.mode,
      actor: makerOf(r),
      input: r.options,
      railAfterCommit: true,
    });
    return { reference: 'initiator_reference' in created ? created.initiator_reference : created.provider_reference };
  },
  adjustment: (tx, r, ctx) =>
    postAdjustment(tx, {
      businessId: r.business_id,
      mode: r.mode,
      cardId: r.card_id!,
      businessAccountId: ctx.businessAccountId,
      reference: r.reference,
      actor: makerOf(r),
      adjustment: r.options as unknown as AdjustmentOptions,
    }),
  refund: async (tx, r) => {
    const o = r.options as { reference: string; amount: number; reason?: string };
    const refund = await refundPayment(tx as unknown as Db, { businessId: r.business_id, mode: r.mode, actor: makerOf(r), ...o, sendAfterCommit: true });
    return { reference: refund.refund_reference };
  },
  // A payout upload: the job runs (lib/uploads/run-uploads.ts); its money stays held, each row's share given back in the transaction that runs the row.
  upload: (tx, r) =>
    uploadApproved(tx, {
      businessId: r.business_id,
      mode: r.mode,
      approvalReference: r.reference,
      decidedBy: r.decided_by === null ? null : Number(r.decided_by),
    }),
};

/**
 * What else a request's end changes, by kind, in the transaction that claims it and releases its money: a
 * rejected, withdrawn or failed upload is cancelled, an expired one expired, its rows never to run.
 */
export const ENDINGS: Partial<Record<ApprovalKind, (tx: Tx, request: ApprovalRow, status: 'rejected' | 'expired' | 'failed') => Promise<void>>> = {
  upload: (tx, r, status) =>
    uploadEnded(tx, {
      businessId: r.business_id,
      mode: r.mode,
      approvalReference: r.reference,
      decidedBy: r.decided_by === null ? null : Number(r.decided_by),
      status: status === 'expired' ? 'expired' : 'cancelled',
    }),
};
