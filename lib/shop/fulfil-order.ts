import { eq, sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import { CARD_COLLISIONS, CARD_TAKEN_MEANWHILE, issueCardIn } from '../cards/create-card';
import { newCardLink, type CardLink } from '../cards/card-links';
import type { Db, Tx } from '../db/client';
import { payments, shopOrders } from '../db/schema';
import { queueOrderMessages } from '../messages/order-messages';
import { logger } from '../observability/logger';
import type { Payment } from '../payments/payment-view';
import { refundPayment } from '../refunds/refund-payment';
import { sendRefundNow } from '../refunds/send-refunds';
import { withoutCommitHook } from '../db/commit-hooks';
import { pgConstraint } from '../db/transaction';
import { ServiceError } from '../errors';
import { enqueueEvent } from '../webhooks/outbox';
import { orderEventPayload } from '../webhooks/payloads';
import { splitName } from './order-input';

export type ShopOrder = typeof shopOrders.$inferSelect;

export interface OrderCard {
  id: number;
  cardNumber: string;
  /** Active and not past its expiry: money credited to it can be spent. */
  usable?: boolean;
}

/**
 * Inside completePayment's transaction, before it reads the payment's card: a shop order being paid gets its
 * card now, the business's live card for the recipient's phone in the order's currency, or a new one. The
 * payment then credits it as any payment credits its card. A lock on the recipient keeps two orders for the
 * same new recipient paid at once from issuing two cards. Nothing for a payment that is no shop order's.
 */
export async function cardForPaidOrder(tx: Tx, payment: Payment, actor: Actor): Promise<OrderCard | undefined> {
  if (payment.cardId !== null) return undefined;
  const [order] = await tx.select().from(shopOrders).where(eq(shopOrders.paymentId, payment.id)).for('update');
  if (order?.status !== 'pending') return undefined;
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext(${`shop-recipient:${order.businessId}:${order.mode}:${order.currency}:${order.recipientPhone}`}))`,
  );
  const card = (await recipientCard(tx, order)) ?? (await issueRecipientCard(tx, order, actor));
  await tx.update(payments).set({ cardId: card.id, cardNumber: card.cardNumber }).where(eq(payments.id, payment.id));
  return card;
}

/** The recipient's card with this business (not cancelled), if they have one, and whether it can be spent. */
export async function recipientCard(
  tx: Tx | Db,
  order: Pick<ShopOrder, 'businessId' | 'mode' | 'currency' | 'recipientPhone'>,
): Promise<OrderCard | undefined> {
  const found = await tx.execute<{ id: string; card_number: string; usable: boolean }>(sql`
    SELECT c.id, c.card_number, (c.status = 1 AND c.expired_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > now())) AS usable
      FROM cards c JOIN customers cu ON cu.id = c.customer_id
     WHERE c.business_id = ${order.businessId} AND c.mode = ${order.mode} AND c.currency = ${order.currency}
       AND cu.phone_number = ${order.recipientPhone} AND c.cancelled_at IS NULL
     ORDER BY c.id DESC LIMIT 1`);
  const row = found.rows[0];
  return row ? { id: Number(row.id), cardNumber: row.card_number, usable: row.usable } : undefined;
}

/**
 * A new card for the recipient, its messages on as a card issued with notify (its link comes in the order's gift,
 * not in a card_issued message). A card for the same phone and currency issued meanwhile elsewhere (POST /card, a
 * batch, an upload: they take no lock of ours) makes the insert fail on its unique index once that one commits:
 * the savepoint undoes only the insert, and that card is read and credited instead of the payment's completion
 * rolling back. A random number colliding is tried again, as issueCardIn does alone.
 */
async function issueRecipientCard(tx: Tx, order: ShopOrder, actor: Actor): Promise<OrderCard> {
  const { first, last } = splitName(order.recipientName);
  for (let attempt = 0; ; attempt++) {
    await tx.execute(sql`SAVEPOINT shop_order_card`);
    try {
      const cardNumber = await issueCardIn(tx, {
        businessId: order.businessId,
        mode: order.mode,
        actor,
        input: { phone_number: order.recipientPhone, currency: order.currency, first_name: first, last_name: last },
      });
      await tx.execute(sql`RELEASE SAVEPOINT shop_order_card`);
      const [row] = (await tx.execute<{ id: string }>(sql`UPDATE cards SET messages_on = true WHERE card_number = ${cardNumber} RETURNING id`)).rows;
      return { id: Number(row.id), cardNumber };
    } catch (err) {
      const constraint = pgConstraint(err);
      if (!(constraint === CARD_TAKEN_MEANWHILE || CARD_COLLISIONS.has(constraint ?? '')) || attempt >= 5) throw err;
      await tx.execute(sql`ROLLBACK TO SAVEPOINT shop_order_card`);
      const meanwhile = await recipientCard(tx, order);
      if (meanwhile) return meanwhile;
    }
  }
}

export interface OrderSettled {
  /** The buyer paid but the card could not take the money: the refund made in the same transaction, to send once it commits (live). */
  refund?: { mode: Payment['mode']; reference: string };
}

const ORDER_DID_NOT_FIT = "The recipient's card could not take this amount when it was paid (its maximum balance, or it was closed); the buyer is refunded.";

/**
 * In the same transaction, after the payment moved the money: the order is paid (with `order.paid` and the
 * messages), or failed with why. A paid order whose money did not reach the card is refunded after commit.
 */
export async function settleShopOrder(
  tx: Tx,
  payment: Payment,
  outcome: { status: string; creditedTo: 'card' | 'business_account' | null },
): Promise<OrderSettled> {
  const [order] = await tx.select().from(shopOrders).where(eq(shopOrders.paymentId, payment.id)).for('update');
  if (order?.status !== 'pending') return {};
  if (outcome.status === 'success' && outcome.creditedTo === 'card') {
    const [paid] = await tx
      .update(shopOrders)
      .set({ status: 'paid', cardId: payment.cardId, paidAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(shopOrders.id, order.id))
      .returning();
    await enqueueEvent(tx, {
      businessId: order.businessId,
      mode: order.mode,
      type: 'order.paid',
      subjectReference: order.reference,
      payload: orderEventPayload({
        mode: order.mode,
        currency: order.currency,
        amount: order.amount,
        orderReference: order.reference,
        linkReference: payment.linkReference,
        cardNumber: payment.cardNumber!,
        recipient: { name: order.recipientName, phoneNumber: order.recipientPhone },
        buyerName: order.buyerName,
        createdAt: order.createdAt,
        updatedAt: paid.updatedAt,
      }),
    });
    await recordAudit(tx, {
      businessId: order.businessId,
      mode: order.mode,
      actor: { type: 'system', id: 'shop' },
      action: 'order.paid',
      target: order.reference,
      details: { amount: order.amount, card_number: payment.cardNumber, link_reference: payment.linkReference },
    });
    const card = { id: payment.cardId!, cardNumber: payment.cardNumber! };
    await orderPaidMessages(tx, paid, card, await newCardLink(tx, { businessId: order.businessId, mode: order.mode, cardId: card.id }));
    return {};
  }
  const paidButNotCredited = outcome.status === 'success';
  let reason = paidButNotCredited ? ORDER_DID_NOT_FIT : (payment.failureReason ?? 'The payment did not go through.');
  // Refunded in this same transaction, so no crash can leave the buyer paid for nothing with no refund on record.
  const refund = paidButNotCredited ? await refundOrder(tx, order, payment, reason) : undefined;
  if (refund && 'refusal' in refund) reason = `${reason} The refund could not be made (${refund.refusal}): refund it from the payment's page.`;
  await tx
    .update(shopOrders)
    .set({ status: 'failed', failureReason: reason, updatedAt: sql`now()`, ...(paidButNotCredited ? { cardId: payment.cardId } : {}) })
    .where(eq(shopOrders.id, order.id));
  return refund && 'reference' in refund ? { refund: { mode: order.mode, reference: refund.reference } } : {};
}

/**
 * The payment's refund, made inside the completion's transaction (a savepoint, without the caller's commit hook):
 * a refund refused (live refunds not set up, say) leaves the payment completed and the order failed with why,
 * rather than undoing the payment.
 */
async function refundOrder(tx: Tx, order: ShopOrder, payment: Payment, reason: string): Promise<{ reference: string } | { refusal: string }> {
  try {
    const made = await withoutCommitHook(() =>
      refundPayment(tx as unknown as Db, {
        businessId: order.businessId,
        mode: order.mode,
        reference: payment.linkReference,
        reason,
        actor: { type: 'system', id: 'shop' },
        sendAfterCommit: true,
        // The buyer got nothing: all they paid comes back, the fee from the fee revenue that took it, not from the business.
        withServiceFee: true,
      }),
    );
    return { reference: made.refund_reference };
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    logger.error(
      { err, link_reference: payment.linkReference },
      'the refund of a shop order that did not fit its card was refused; refund it from the dashboard',
    );
    return { refusal: err.title };
  }
}

/**
 * THE place a paid order's messages are queued from, in its transaction so they commit with it (and are sent
 * after, never in test mode): the recipient's gift (the card's link, the buyer's name and message) and the buyer's
 * receipt, nothing else for this credit (the payment's credit queued no money_added).
 */
async function orderPaidMessages(tx: Tx, order: ShopOrder, card: OrderCard, link: CardLink): Promise<void> {
  await queueOrderMessages(tx, {
    orderId: order.id,
    businessId: order.businessId,
    mode: order.mode,
    cardId: card.id,
    recipientPhone: order.recipientPhone,
    linkUrl: link.url,
    buyerPhone: order.buyerPhone,
    buyerEmail: order.buyerEmail,
  });
}

/** After commit: a live refund made for an order that did not fit its card is sent now; what does not get through, the refunds' job sends. */
export async function sendOrderRefund(db: Db, settled: OrderSettled): Promise<void> {
  if (settled.refund?.mode !== 'live') return;
  try {
    await sendRefundNow(db, settled.refund.reference);
  } catch (err) {
    logger.error({ err, refund_reference: settled.refund.reference }, 'sending a shop order refund after commit; the worker retries it');
  }
}
