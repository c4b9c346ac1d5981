import { and, eq, sql, type SQL } from 'drizzle-orm';
import { recordAudit } from '../audit';
import { ACTIVE } from '../cards/card-status';
import type { Db } from '../db/client';
import { payments } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { businessAccountId, clearingAccountId, feeRevenueAccountId } from '../ledger/accounts';
import { postTransaction } from '../ledger/post-transaction';
import { postCardCredit } from '../cards/card-credit';
import type { LimitExceeded } from '../limits/limit-refusal';
import type { Actor } from '../actor';
import { paymentFailureReason } from '../providers/failure-reasons';
import { newProcessorReference } from '../providers/sandbox';
import type { Mode } from '../validation';
import { enqueueEvent } from '../webhooks/outbox';
import { paymentEventPayload } from '../webhooks/payloads';
import { eventPaymentType, type Payment, type PaymentOutcome, type PaymentType } from './payment-view';
import { cardForPaidOrder, sendOrderRefund, settleShopOrder, type OrderSettled } from '../shop/fulfil-order';

export interface CompletePaymentOptions {
  linkReference: string;
  outcome: PaymentOutcome;
  actor: Actor;
  /** Scope: a payment outside it is "not found". The checkout page passes only type and mode. */
  businessId?: number;
  mode?: Mode;
  type?: PaymentType;
  processorReference?: string;
  /** Why it failed or was cancelled, in plain words for the dashboard; without it one is chosen by the payment's type. */
  failureReason?: string;
  /** For background workers: leave a payment another worker holds to that worker. */
  skipLocked?: boolean;
  /** Written with the outcome in the same statement (live: what Chapa's verify said). */
  verify?: { state: string; note: string };
}

export interface CompletePaymentResult {
  payment: Payment;
  /** False when the payment had already finished: nothing was changed. */
  changed: boolean;
}

interface HolderRow {
  status: number;
  cancelled_at: Date | null;
  account_id: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone_number: string;
}

function scope(opts: CompletePaymentOptions): SQL {
  const conditions = [eq(payments.linkReference, opts.linkReference)];
  if (opts.businessId !== undefined) conditions.push(eq(payments.businessId, opts.businessId));
  if (opts.mode !== undefined) conditions.push(eq(payments.mode, opts.mode));
  if (opts.type !== undefined) conditions.push(eq(payments.type, opts.type));
  return and(...conditions)!;
}

/**
 * The one settlement path (test helper, checkout page, sandbox worker). The
 * payment row is locked and its status checked inside the money transaction,
 * so however many completions race, one moves money and writes the event and
 * the rest see a finished payment and change nothing.
 */
export async function completePayment(db: Db, opts: CompletePaymentOptions): Promise<CompletePaymentResult> {
  const [probe] = await db.select().from(payments).where(scope(opts));
  if (!probe) throw new ServiceError('payment_not_found', 'No payment with this link_reference belongs to your business.');
  if (probe.status !== 'pending') return { payment: probe, changed: false };

  const mode = probe.mode;
  const currency = probe.currency;
  // Shared accounts are found or created before the money transaction opens (lib/ledger/accounts.ts).
  const clearing = await clearingAccountId(db, probe.type === 'hosted' ? 'checkout' : 'wallet', mode, currency);
  const business = await businessAccountId(db, probe.businessId, mode, currency);
  const feeRevenue = await feeRevenueAccountId(db, mode, currency);

  let settled: OrderSettled = {};
  const result = await inTransaction(db, async (tx) => {
    // A redone attempt starts from nothing: what a rolled-back one settled never happened.
    settled = {};
    const [locked] = await tx
      .select()
      .from(payments)
      .where(eq(payments.id, probe.id))
      .for('update', opts.skipLocked ? { skipLocked: true } : undefined);
    if (!locked) return { payment: probe, changed: false };
    if (locked.status !== 'pending') return { payment: locked, changed: false };
    // A shop order's payment gets its card only now that it is paid: found by the recipient's phone, or issued.
    const orderCard = opts.outcome === 'success' ? await cardForPaidOrder(tx, locked, opts.actor) : undefined;
    const row = orderCard ? { ...locked, cardId: orderCard.id, cardNumber: orderCard.cardNumber } : locked;

    // FOR SHARE waits out a cancellation or disable in flight, so the card's state below is the one that holds at commit.
    const holder = await tx.execute<HolderRow & Record<string, unknown>>(sql`
      SELECT c.status, c.cancelled_at, c.account_id, n.first_name, n.last_name, n.email, cu.phone_number
      FROM cards c JOIN customers cu ON cu.id = c.customer_id
      LEFT JOIN customer_names n ON n.business_id = ${row.businessId} AND n.customer_id = c.customer_id
      WHERE c.id = ${row.cardId} FOR SHARE OF c`);
    const card = holder.rows[0];

    let transactionId: number | null = null;
    let creditedTo: 'card' | 'business_account' | null = null;
    let overLimit: LimitExceeded | undefined;
    if (opts.outcome === 'success') {
      const cardUsable = card && card.status === ACTIVE && card.cancelled_at === null;
      const crediting = (accountId: number) => ({
        mode,
        kind: 'payment',
        businessId: row.businessId,
        reference: row.linkReference,
        actor: opts.actor,
        postings: [
          { accountId: clearing, amount: -(row.amount + row.serviceFee) },
          { accountId, amount: row.amount },
          { accountId: feeRevenue, amount: row.serviceFee },
        ],
      });
      // The payer has paid: a card that can no longer take it (over its maximum balance) leaves the money on the business account.
      // A shop order's credit is told by the order's gift (settleShopOrder), not by money_added.
      const toCard = cardUsable ? await postCardCredit(tx, crediting(Number(card.account_id)), { toldByCaller: orderCard !== undefined }) : undefined;
      overLimit = toCard?.exceeded;
      creditedTo = toCard?.transactionId !== undefined ? 'card' : 'business_account';
      transactionId = toCard?.transactionId ?? (await postTransaction(tx, crediting(business))).transactionId;
    }

    const processorReference = opts.processorReference ?? (opts.outcome === 'cancelled' ? null : newProcessorReference());
    const [updated] = await tx
      .update(payments)
      .set({
        status: opts.outcome,
        failureReason: opts.outcome === 'success' ? null : (opts.failureReason ?? paymentFailureReason(row.type, opts.outcome)),
        providerReference: processorReference,
        transactionId,
        completedAt: sql`now()`,
        updatedAt: sql`now()`,
        settleAfter: null,
        ...(opts.verify && {
          verifyState: opts.verify.state,
          verifyNote: opts.verify.note.slice(0, 500),
          verifiedAt: sql`now()`,
          nextVerifyAt: null,
          verifyAttempts: sql`${payments.verifyAttempts} + 1`,
        }),
      })
      .where(eq(payments.id, row.id))
      .returning();

    await enqueueEvent(tx, {
      businessId: row.businessId,
      mode,
      type: `payment.${opts.outcome}`,
      subjectReference: row.linkReference,
      payload: paymentEventPayload({
        status: opts.outcome,
        mode,
        paymentType: eventPaymentType(row.type),
        currency: row.currency,
        amount: row.amount,
        serviceFee: row.serviceFee,
        merchantReference: row.merchantReference,
        serviceReference: row.linkReference,
        processorReference,
        paymentMethod: row.paymentMethod,
        customer: card && { first_name: card.first_name, last_name: card.last_name, email: card.email, phone_number: card.phone_number },
        createdAt: updated.createdAt,
        updatedAt: updated.updatedAt,
      }),
    });
    await recordAudit(tx, {
      businessId: row.businessId,
      mode,
      actor: opts.actor,
      action: `payment.${opts.outcome}`,
      target: row.linkReference,
      details: {
        amount: row.amount,
        service_fee: row.serviceFee,
        ...(creditedTo && { credited_to: creditedTo, transaction_id: transactionId }),
        ...(overLimit && { limit_exceeded: overLimit.limit }),
      },
    });
    settled = await settleShopOrder(tx, updated, { status: opts.outcome, creditedTo });
    return { payment: updated, changed: true };
  });
  await sendOrderRefund(db, settled);
  return result;
}
