import { eq, sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import { ACTIVE } from '../cards/card-status';
import type { Db, Tx } from '../db/client';
import { payments, refunds } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { closeJob } from '../jobs/job-queue';
import { businessAccountId, clearingAccountId } from '../ledger/accounts';
import { postTransaction } from '../ledger/post-transaction';
import { eventPaymentType } from '../payments/payment-view';
import { enqueueEvent } from '../webhooks/outbox';
import { refundEventPayload } from '../webhooks/payloads';
import { eventCustomer, lockPaymentCard } from './payment-card';
import { refundClearingRail, type Refund } from './refund-view';

export interface SettleRefundOptions {
  refundId: number;
  outcome: 'succeeded' | 'failed';
  actor: Actor;
  /** Why the rail refused, in words for the business's staff. */
  failureReason?: string;
  providerReference?: string | null;
}

/**
 * Ends a pending (live) refund once. Succeeded: the row says so. Failed: the
 * whole debit goes back in one reversing transaction, to the card while it is
 * active, else to the business account (as a failed payout's does), the
 * payment's refunded total drops by the amount, and `payment.refund_failed`
 * is written with it. A refund that has already ended is left as it is.
 */
export async function settleRefund(db: Db, opts: SettleRefundOptions): Promise<{ refund: Refund; changed: boolean }> {
  const [probe] = await db.select().from(refunds).where(eq(refunds.id, opts.refundId));
  if (!probe) throw new Error(`no refund ${opts.refundId}`);
  if (probe.status !== 'pending') return { refund: probe, changed: false };
  const [paymentProbe] = await db.select().from(payments).where(eq(payments.id, probe.paymentId));
  const clearing = await clearingAccountId(db, refundClearingRail(paymentProbe.type), probe.mode, probe.currency);
  const businessAccount = await businessAccountId(db, probe.businessId, probe.mode, probe.currency);

  return inTransaction(db, async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, probe.paymentId)).for('update');
    const [refund] = await tx.select().from(refunds).where(eq(refunds.id, probe.id)).for('update');
    if (refund.status !== 'pending') return { refund, changed: false };
    // Its job ends with it, a dead one a person settled by hand included.
    await closeJob(tx, 'refund', refund.reference);
    const done = {
      requestState: 'done' as const,
      completedAt: sql`now()`,
      updatedAt: sql`now()`,
      providerReference: opts.providerReference ?? refund.providerReference,
    };
    if (opts.outcome === 'succeeded') {
      const [row] = await tx
        .update(refunds)
        .set({ status: 'succeeded', ...done })
        .where(eq(refunds.id, refund.id))
        .returning();
      await recordAudit(tx, {
        businessId: refund.businessId,
        mode: refund.mode,
        actor: opts.actor,
        action: 'payment.refund_succeeded',
        target: payment.linkReference,
        details: { refund_reference: refund.reference, amount: refund.amount },
      });
      return { refund: row, changed: true };
    }

    const card = await lockPaymentCard(tx, payment);
    // Back where it came from: the card only when the refund debited the card (not the business account, for a payment the business
    // account received) and the card is still active; otherwise the business account, as for a failed payout (CONTRACT 3).
    const fromCard =
      card !== undefined &&
      (await tx.execute(sql`SELECT 1 FROM ledger_entries WHERE transaction_id = ${refund.transactionId} AND account_id = ${card.account_id} AND amount < 0`))
        .rows.length > 0;
    const toCard = fromCard && card.status === ACTIVE && card.cancelled_at === null && !card.account_closed;
    const reversal = await postTransaction(tx, {
      mode: refund.mode,
      kind: 'payment_refund_reversal',
      businessId: refund.businessId,
      reference: refund.reference,
      actor: opts.actor,
      reversesId: refund.transactionId,
      postings: [
        { accountId: clearing, amount: -(refund.amount + refund.serviceFee) },
        { accountId: toCard ? Number(card.account_id) : businessAccount, amount: refund.amount },
        // A fee given back goes back to the fee revenue account it came from.
        ...(refund.serviceFee > 0 ? [{ accountId: await feeAccountOfRefund(tx, refund.transactionId), amount: refund.serviceFee }] : []),
      ],
    });
    const failureReason = (opts.failureReason ?? 'The payment provider refused the refund.').slice(0, 500);
    const [row] = await tx
      .update(refunds)
      .set({ status: 'failed', failureReason, reversalTransactionId: reversal.transactionId, ...done })
      .where(eq(refunds.id, refund.id))
      .returning();
    const [updated] = await tx
      .update(payments)
      .set({ refundedAmount: sql`${payments.refundedAmount} - ${refund.amount}`, updatedAt: sql`now()` })
      .where(eq(payments.id, payment.id))
      .returning();
    await enqueueEvent(tx, {
      businessId: refund.businessId,
      mode: refund.mode,
      type: 'payment.refund_failed',
      subjectReference: payment.linkReference,
      payload: refundEventPayload({
        status: 'failed',
        mode: refund.mode,
        paymentType: eventPaymentType(payment.type),
        currency: refund.currency,
        amount: refund.amount,
        refundReference: refund.reference,
        refundedAmount: updated.refundedAmount,
        paymentAmount: payment.amount,
        reason: refund.reason,
        failureReason,
        merchantReference: payment.merchantReference,
        serviceReference: payment.linkReference,
        processorReference: payment.providerReference,
        paymentMethod: payment.paymentMethod,
        customer: eventCustomer(card),
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
      }),
    });
    await recordAudit(tx, {
      businessId: refund.businessId,
      mode: refund.mode,
      actor: opts.actor,
      action: 'payment.refund_failed',
      target: payment.linkReference,
      details: {
        refund_reference: refund.reference,
        amount: refund.amount,
        credited_to: toCard ? 'card' : 'business_account',
        transaction_id: reversal.transactionId,
        reason: failureReason,
      },
    });
    return { refund: row, changed: true };
  });
}

/** The fee revenue account a refund took the payer's fee from. */
async function feeAccountOfRefund(tx: Tx, transactionId: number): Promise<number> {
  const found = await tx.execute<{ account_id: number }>(sql`
    SELECT e.account_id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
     WHERE e.transaction_id = ${transactionId} AND a.kind = 'fee_revenue' AND e.amount < 0 LIMIT 1`);
  return Number(found.rows[0].account_id);
}
