import { and, eq, sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db, DbOrTx } from '../db/client';
import { payments, refunds } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError, validationError } from '../errors';
import { randomBase62 } from '../ids';
import { enqueueJob } from '../jobs/job-queue';
import { businessAccountId, clearingAccountId } from '../ledger/accounts';
import { postTransaction } from '../ledger/post-transaction';
import { eventPaymentType, type Payment } from '../payments/payment-view';
import { LIVE_NOT_CONFIGURED } from '../providers/provider-port';
import { providerFor } from '../providers/provider-registry';
import { groupedUnitsText } from '../money-text';
import type { Mode } from '../validation';
import { enqueueEvent } from '../webhooks/outbox';
import { refundEventPayload } from '../webhooks/payloads';
import { eventCustomer, lockPaymentCard, type CardRow } from './payment-card';
import { REFUND_REASON_MAX } from './refund-request';
import { refundClearingRail, toRefundRecord, type RefundRecord } from './refund-view';
import { sendRefundNow } from './send-refunds';

export interface RefundPaymentOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  /** The payment's link_reference. */
  reference: string;
  /** Minor units; without it, what is left to refund. */
  amount?: number;
  reason?: string;
  /** Run inside a caller's transaction: a live refund is sent to Chapa after that commits, by the caller or the worker. */
  sendAfterCommit?: boolean;
  /**
   * Also give the payer back the service fee they paid on top, from the fee revenue account that took it: for a
   * shop order paid but never fulfilled (the buyer got nothing, so keeps nothing unpaid). Only with the whole amount.
   */
  withServiceFee?: boolean;
}

/**
 * The account a refund is taken from: the one the payment credited. That is
 * the card, unless the card was closed when the payment arrived (then the
 * business account got it) or has been cancelled since (its balance was swept
 * to the business account, so the refund follows the money there).
 */
export async function refundSource(
  db: DbOrTx,
  payment: Pick<Payment, 'transactionId'>,
  card: Pick<CardRow, 'account_id' | 'account_closed'> | undefined,
  businessAccount: number,
): Promise<number> {
  if (!card || card.account_closed) return businessAccount;
  const credited = await db.execute<{ account_id: number }>(sql`
    SELECT e.account_id FROM ledger_entries e
    WHERE e.transaction_id = ${payment.transactionId} AND e.account_id IN (${card.account_id}, ${businessAccount}) AND e.amount > 0
    LIMIT 1`);
  return Number(credited.rows[0]?.account_id ?? card.account_id);
}

/** The fee revenue account (one of its shards) that took the payment's fee: a fee given back comes from that one. */
async function feeAccountOf(tx: DbOrTx, transactionId: number | null): Promise<number> {
  const found = await tx.execute<{ account_id: number }>(sql`
    SELECT e.account_id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
     WHERE e.transaction_id = ${transactionId} AND a.kind = 'fee_revenue' AND e.amount > 0 LIMIT 1`);
  if (!found.rows[0]) throw new Error(`payment transaction ${transactionId} credited no fee revenue account`);
  return Number(found.rows[0].account_id);
}

/**
 * Refunds a paid top-up, in full or in part, as often as something is left.
 * One transaction locks the payment (so concurrent refunds queue and never
 * pass what was paid), debits the account the payment credited (never below
 * zero), credits the rail's refund clearing account, and writes the refund,
 * the payment's refunded total, the audit line and `payment.refunded`.
 * Test mode's sandbox repays the payer at once; a live refund is queued as a
 * request to Chapa in the same row, sent after commit (lib/refunds/send-refunds.ts).
 * The payer's service fee is not refunded (at most `amount` comes back), except withServiceFee's.
 */
export async function refundPayment(db: Db, opts: RefundPaymentOptions): Promise<RefundRecord> {
  return (await refundPaymentFrom(db, opts)).refund;
}

/** Where a refund took its money from: the card, or the business account when the card had been cancelled (or never got it). */
export type RefundDebited = 'card' | 'business_account';

/** refundPayment, also saying which account it debited (the dashboard tells staff). */
export async function refundPaymentFrom(db: Db, opts: RefundPaymentOptions): Promise<{ refund: RefundRecord; debited: RefundDebited }> {
  const scope = and(eq(payments.linkReference, opts.reference.trim()), eq(payments.businessId, opts.businessId), eq(payments.mode, opts.mode));
  const [probe] = await db.select().from(payments).where(scope);
  if (!probe) throw new ServiceError('payment_not_found', 'No payment with this link_reference belongs to your business.');
  if (opts.amount !== undefined && (!Number.isSafeInteger(opts.amount) || opts.amount <= 0)) {
    throw validationError('amount', 'amount must be a positive integer in minor units');
  }
  const live = opts.mode === 'live';
  if (live && !providerFor('live')?.refunds) throw new ServiceError('refund_request_failed', LIVE_NOT_CONFIGURED);
  // Shared accounts are found or created before the money transaction opens (lib/ledger/accounts.ts).
  const clearing = await clearingAccountId(db, refundClearingRail(probe.type), probe.mode, probe.currency);
  const businessAccount = await businessAccountId(db, probe.businessId, probe.mode, probe.currency);
  const reason = opts.reason?.trim() ? opts.reason.trim().slice(0, REFUND_REASON_MAX) : null;
  const debitedOf = (source: number): RefundDebited => (source === businessAccount ? 'business_account' : 'card');

  const { record, debited } = await inTransaction(db, async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, probe.id)).for('update');
    if (payment.status !== 'success' || payment.transactionId === null) {
      throw new ServiceError('payment_not_refundable', 'Only a paid (successful) payment can be refunded.');
    }
    const left = payment.amount - payment.refundedAmount;
    if (left <= 0) throw new ServiceError('payment_not_refundable', 'This payment has been refunded in full.');
    const amount = opts.amount ?? left;
    if (amount > left) {
      throw validationError('amount', `amount must be at most ${left} (${groupedUnitsText(left)} ${payment.currency}), what is left to refund of this payment`);
    }

    const card = await lockPaymentCard(tx, payment);
    const source = await refundSource(tx, payment, card, businessAccount);
    const reference = `rfd_${randomBase62(24)}`;
    // The fee only with the whole amount and only once (a payment refunded before gets its fee back with none).
    const fee = opts.withServiceFee && payment.refundedAmount === 0 && amount === payment.amount ? payment.serviceFee : 0;
    const feeAccount = fee > 0 ? await feeAccountOf(tx, payment.transactionId) : undefined;
    const posted = await postTransaction(tx, {
      mode: payment.mode,
      kind: 'payment_refund',
      businessId: payment.businessId,
      reference,
      actor: opts.actor,
      postings: [
        { accountId: source, amount: -amount },
        ...(feeAccount !== undefined ? [{ accountId: feeAccount, amount: -fee }] : []),
        { accountId: clearing, amount: amount + fee },
      ],
      onInsufficient: () =>
        new ServiceError(
          'insufficient_balance',
          source === businessAccount
            ? 'The business account does not hold the amount of this refund.'
            : 'The card does not hold the amount of this refund; it was spent since the payment.',
          { field: 'amount' },
        ),
    });

    const [updated] = await tx
      .update(payments)
      .set({ refundedAmount: sql`${payments.refundedAmount} + ${amount}`, updatedAt: sql`now()` })
      .where(eq(payments.id, payment.id))
      .returning();
    const [refund] = await tx
      .insert(refunds)
      .values({
        reference,
        paymentId: payment.id,
        businessId: payment.businessId,
        mode: payment.mode,
        currency: payment.currency,
        amount,
        serviceFee: fee,
        reason,
        status: live ? 'pending' : 'succeeded',
        rail: live ? 'chapa' : 'sandbox',
        transactionId: posted.transactionId,
        requestState: live ? 'queued' : 'done',
        actorType: opts.actor.type,
        actorId: opts.actor.id,
        ...(live ? {} : { completedAt: sql`now()` }),
      })
      .returning();
    // The request to the rail is a job committed with the debit: it is sent once this commits, or by the worker.
    if (live) await enqueueJob(tx, { kind: 'refund', subject: reference, businessId: payment.businessId, mode: payment.mode, ownFirstTry: true });

    await enqueueEvent(tx, {
      businessId: payment.businessId,
      mode: payment.mode,
      type: 'payment.refunded',
      subjectReference: payment.linkReference,
      payload: refundEventPayload({
        status: 'refunded',
        mode: payment.mode,
        paymentType: eventPaymentType(payment.type),
        currency: payment.currency,
        amount,
        refundReference: reference,
        refundedAmount: updated.refundedAmount,
        paymentAmount: payment.amount,
        reason,
        merchantReference: payment.merchantReference,
        serviceReference: payment.linkReference,
        processorReference: payment.providerReference,
        paymentMethod: payment.paymentMethod,
        customer: eventCustomer(card),
        createdAt: refund.createdAt,
        updatedAt: refund.updatedAt,
      }),
    });
    await recordAudit(tx, {
      businessId: payment.businessId,
      mode: payment.mode,
      actor: opts.actor,
      action: 'payment.refunded',
      target: payment.linkReference,
      details: {
        refund_reference: reference,
        amount,
        refunded_amount: updated.refundedAmount,
        debited: debitedOf(source),
        ...(fee > 0 ? { service_fee: fee } : {}),
        transaction_id: posted.transactionId,
        ...(reason ? { reason } : {}),
      },
    });
    return { record: toRefundRecord(refund, updated), debited: debitedOf(source) };
  });
  if (!live || opts.sendAfterCommit) return { refund: record, debited };
  // Sent straight after the commit; if that does not get through, the worker sends it (lib/refunds/send-refunds.ts).
  const sent = await sendRefundNow(db, record.refund_reference);
  const [refund] = await db.select().from(refunds).where(eq(refunds.reference, record.refund_reference));
  const [payment] = await db.select().from(payments).where(eq(payments.id, probe.id));
  if (sent === 'failed') {
    throw new ServiceError('refund_request_failed', `${refund.failureReason ?? 'Chapa refused the refund.'} The amount went back (${refund.reference}).`);
  }
  return { refund: toRefundRecord(refund, payment), debited };
}
