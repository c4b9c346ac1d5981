import type { refunds } from '../db/schema';
import type { ClearingRail } from '../ledger/accounts';

export type Refund = typeof refunds.$inferSelect;

/** A refund as the API answers it and the payment.refunded event names it. */
export interface RefundRecord {
  refund_reference: string;
  link_reference: string;
  status: 'pending' | 'succeeded' | 'failed';
  currency: string;
  amount: number;
  reason?: string;
  /** What the payment has had refunded in all, this refund included (a failed one gives its amount back). */
  refunded_amount: number;
  /** What is still refundable on the payment. */
  refundable_amount: number;
  failure_reason?: string;
  mode: string;
  created_at: string;
  updated_at: string;
  completed_at?: string;
}

export function toRefundRecord(r: Refund, payment: { linkReference: string; amount: number; refundedAmount: number }): RefundRecord {
  return {
    refund_reference: r.reference,
    link_reference: payment.linkReference,
    status: r.status,
    currency: r.currency,
    amount: r.amount,
    ...(r.reason ? { reason: r.reason } : {}),
    refunded_amount: payment.refundedAmount,
    refundable_amount: payment.amount - payment.refundedAmount,
    ...(r.failureReason ? { failure_reason: r.failureReason } : {}),
    mode: r.mode,
    created_at: new Date(r.createdAt).toISOString(),
    updated_at: new Date(r.updatedAt).toISOString(),
    ...(r.completedAt ? { completed_at: new Date(r.completedAt).toISOString() } : {}),
  };
}

/** The clearing account a rail's refunds wait in: the payer is repaid through the rail that took the payment. */
export const refundClearingRail = (paymentType: string): ClearingRail => (paymentType === 'hosted' ? 'refunds:checkout' : 'refunds:wallet');
