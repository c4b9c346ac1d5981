import { is, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Actor } from '../actor';
import { normalisePhone } from '../cards/phone';
import type { Db, Tx } from '../db/client';
import { shopOrders } from '../db/schema';
import { ServiceError } from '../errors';
import { randomBase62 } from '../ids';
import { assertCardCanTake } from '../limits/card-headroom';
import { limitExceededError } from '../limits/limit-refusal';
import { createOrderPayment } from '../payments/create-payment';
import { groupedUnitsText } from '../money-text';
import { recipientCard } from './fulfil-order';
import { parseOrderInput, splitName } from './order-input';
import { takeOrderForRecipient, takeOrderFromAddress } from './order-limits';
import { openShop, type OpenShop } from './shop-settings';

export interface CreatedOrder {
  order_reference: string;
  status: 'pending';
  amount: number;
  currency: string;
  checkout_url: string;
  link_reference: string;
}

const SHOP_ACTOR: Actor = { type: 'system', id: 'shop' };

/** 24 base62 characters: about 142 random bits, the order's only credential. */
const newOrderReference = () => `ord_${randomBase62(24)}`;

/**
 * A buyer's order on a shop: the shop first (404 when off or unknown), then the address's rate limit, the input,
 * the recipient's; then the limit check and a hosted payment with the order written in its transaction. No card
 * is touched until the payment succeeds (lib/shop/fulfil-order.ts).
 */
export async function createShopOrder(db: Db, opts: { slug: string; address: string; input: unknown }): Promise<CreatedOrder> {
  const shop = await openShop(db, opts.slug);
  await takeOrderFromAddress(db, opts.address);
  const input = parseOrderInput(opts.input);
  if (input.amount < shop.min_amount || input.amount > shop.max_amount) {
    throw new ServiceError('validation_error', {
      amount: `amount must be between ${shop.min_amount} and ${shop.max_amount} minor units (${groupedUnitsText(shop.min_amount)} to ${groupedUnitsText(shop.max_amount)} ${shop.currency}).`,
    });
  }
  const recipientPhone = phoneOf(input.recipient.phone_number, 'recipient.phone_number');
  const buyerPhone = input.buyer.phone_number ? phoneOf(input.buyer.phone_number, 'buyer.phone_number') : null;
  await takeOrderForRecipient(db, shop.businessId, recipientPhone);

  const order = { businessId: shop.businessId, mode: shop.mode, currency: shop.currency, recipientPhone };
  await assertOrderFits(db, order, input.amount);
  const reference = newOrderReference();
  const buyer = splitName(input.buyer.name);
  const payment = await createOrderPayment(db, {
    businessId: shop.businessId,
    mode: shop.mode,
    actor: SHOP_ACTOR,
    amount: input.amount,
    currency: shop.currency,
    merchantReference: reference,
    payer: { first_name: buyer.first, last_name: buyer.last ?? null, email: input.buyer.email ?? null, phone_number: buyerPhone },
    record: async (tx, paymentId) => {
      await assertOrderFits(tx, order, input.amount);
      await tx.insert(shopOrders).values({
        reference,
        businessId: shop.businessId,
        mode: shop.mode,
        status: 'pending',
        paymentId,
        currency: shop.currency,
        amount: input.amount,
        recipientName: input.recipient.name,
        recipientPhone,
        message: input.message || null,
        buyerName: input.buyer.name,
        buyerPhone,
        buyerEmail: input.buyer.email ?? null,
      });
    },
  });
  return {
    order_reference: reference,
    status: 'pending',
    amount: input.amount,
    currency: shop.currency,
    checkout_url: payment.checkoutUrl,
    link_reference: payment.linkReference,
  };
}

function phoneOf(input: string, field: string): string {
  try {
    return normalisePhone(input).e164;
  } catch (err) {
    if (err instanceof ServiceError) throw new ServiceError('validation_error', { [field]: String(err.detail) });
    throw err;
  }
}

type OrderScope = { businessId: number; mode: OpenShop['mode']; currency: OpenShop['currency']; recipientPhone: string };

/**
 * Refuses an order its recipient's card could not take: the card as every top-up counts it, plus the other orders
 * for the same recipient still awaiting payment from the last hour (a checkout's time: older unpaid orders would let
 * anyone block a stranger's gifts for a day); a recipient with no card yet has only the
 * orders. Inside the payment's transaction the recipient is locked, so orders placed at once count one another.
 */
async function assertOrderFits(db: Db | Tx, order: OrderScope, amount: number): Promise<void> {
  if (is(db, PgTransaction)) {
    await db.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext(${`shop-recipient:${order.businessId}:${order.mode}:${order.currency}:${order.recipientPhone}`}))`,
    );
  }
  const limit = await db.execute<{ max_card_balance: string | null; pending: string }>(sql`
    SELECT (SELECT max_card_balance FROM business_limits WHERE business_id = ${order.businessId} AND mode = ${order.mode} AND currency = ${order.currency}) AS max_card_balance,
           (SELECT coalesce(sum(o.amount), 0) FROM shop_orders o JOIN payments p ON p.id = o.payment_id
             WHERE o.business_id = ${order.businessId} AND o.mode = ${order.mode} AND o.currency = ${order.currency}
               AND o.recipient_phone = ${order.recipientPhone} AND o.status = 'pending' AND p.status = 'pending'
               AND o.created_at > now() - interval '1 hour') AS pending`);
  // A disabled or expired card cannot be replaced by a new one (one card per phone and currency): the gift would land where it cannot be spent.
  const card = await recipientCard(db, order);
  if (card && !card.usable) throw new ServiceError('validation_error', { 'recipient.phone_number': 'This shop cannot send a gift card to this phone number.' });
  const max = limit.rows[0].max_card_balance;
  if (max === null) return;
  const pending = Number(limit.rows[0].pending);
  if (card) {
    await assertCardCanTake(db, { id: card.id, currency: order.currency }, amount + pending);
    return;
  }
  if (amount + pending > Number(max)) throw limitExceededError({ limit: 'max_card_balance', value: Number(max) }, order.currency);
}
