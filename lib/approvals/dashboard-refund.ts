import { and, eq, sql } from 'drizzle-orm';
import { selectCards } from '../cards/card-view';
import type { Db } from '../db/client';
import { payments } from '../db/schema';
import { ServiceError } from '../errors';
import { businessAccountId } from '../ledger/accounts';
import { type RefundDebited, refundPaymentFrom, refundSource } from '../refunds/refund-payment';
import type { RefundRecord } from '../refunds/refund-view';
import type { Mode } from '../validation';
import { payoutNeedsApproval } from './approval-thresholds';
import type { ApprovalRequested } from './approval-request';
import { requestApproval } from './request-approval';

export interface DashboardRefundOptions {
  businessId: number;
  mode: Mode;
  userId: number;
  /** The payment's link_reference. */
  reference: string;
  /** Minor units; without it, what is left to refund. */
  amount?: number;
  reason?: string;
}

export type DashboardRefundResult = { sent: true; refund: RefundRecord; debited: RefundDebited } | { sent: false; approval: ApprovalRequested };

/**
 * A refund asked for from a payment's page: made at once, or, at or above
 * the currency's approval threshold (the same rule as payouts), its amount
 * held where the refund will take it from and queued for a second person.
 * The API's refunds never wait, like its payouts.
 */
export async function refundFromDashboard(db: Db, opts: DashboardRefundOptions): Promise<DashboardRefundResult> {
  const actor = { type: 'user' as const, id: String(opts.userId) };
  const scope = and(eq(payments.linkReference, opts.reference.trim()), eq(payments.businessId, opts.businessId), eq(payments.mode, opts.mode));
  const [payment] = await db.select().from(payments).where(scope);
  const left = payment ? payment.amount - payment.refundedAmount : 0;
  const amount = opts.amount ?? left;
  const needsApproval =
    payment?.status === 'success' &&
    amount > 0 &&
    amount <= left &&
    (await payoutNeedsApproval(db, { businessId: opts.businessId, mode: opts.mode, currency: payment.currency, amount }));
  // Anything that is not a valid refund over the threshold gets refundPayment's own answer (not found, not refundable, too much).
  if (!needsApproval) {
    const { userId: _maker, ...refund } = opts;
    return { sent: true, ...(await refundPaymentFrom(db, { ...refund, actor })) };
  }
  const [card] = await selectCards(db, sql`c.id = ${payment.cardId} AND c.business_id = ${opts.businessId} AND c.mode = ${opts.mode}`);
  if (!card) throw new ServiceError('payment_not_refundable', 'The card this payment credited is gone.');
  // Held where refundPayment will take it from, by its own rule (a cancelled card's account is closed).
  const businessAccount = await businessAccountId(db, opts.businessId, opts.mode, payment.currency);
  const source = await refundSource(db, payment, { account_id: card.account_id, account_closed: card.cancelled_at !== null }, businessAccount);
  const approval = await requestApproval(db, {
    businessId: opts.businessId,
    mode: opts.mode,
    makerUserId: opts.userId,
    kind: 'refund',
    card,
    amount,
    held: amount,
    holdFrom: source === Number(card.account_id) ? 'card' : 'business',
    options: { reference: payment.linkReference, amount, ...(opts.reason?.trim() ? { reason: opts.reason.trim() } : {}) },
    note: opts.reason?.trim() || null,
  });
  return { sent: false, approval };
}
