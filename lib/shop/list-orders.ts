import { and, desc, eq, like, or, sql, type SQL } from 'drizzle-orm';
import { nationalNumberCandidates } from '../cards/phone';
import type { DbOrTx } from '../db/client';
import { cards, payments, shopOrders } from '../db/schema';
import { pageCount, type PageRequest } from '../pagination';
import type { Mode } from '../validation';

/** A shop order as the business reads it (API, dashboard, CSV): who bought it for whom, the message, the card it credited. */
export interface ShopOrderRecord {
  order_reference: string;
  status: 'pending' | 'paid' | 'failed';
  currency: string;
  amount: number;
  recipient: { name: string; phone_number: string };
  buyer: { name: string; phone_number?: string; email?: string };
  message?: string;
  card_number?: string;
  link_reference: string;
  refunded_amount: number;
  failure_reason?: string;
  created_at: string;
  paid_at?: string;
}

export interface ShopOrderPage {
  items: ShopOrderRecord[];
  total: number;
  page: number;
  limit: number;
  pages: number;
}

export interface ListShopOrdersOptions {
  businessId: number;
  mode: Mode;
  page: PageRequest;
  /** Any part of the recipient's or the buyer's phone number, as typed (national with or without 0, or international). */
  phone?: string;
}

const columns = {
  order: shopOrders,
  cardNumber: cards.cardNumber,
  linkReference: payments.linkReference,
  refundedAmount: payments.refundedAmount,
};

type Row = { order: typeof shopOrders.$inferSelect; cardNumber: string | null; linkReference: string; refundedAmount: number };

function toShopOrderRecord(r: Row): ShopOrderRecord {
  const o = r.order;
  return {
    order_reference: o.reference,
    status: o.status,
    currency: o.currency,
    amount: o.amount,
    recipient: { name: o.recipientName, phone_number: o.recipientPhone },
    buyer: { name: o.buyerName, ...(o.buyerPhone ? { phone_number: o.buyerPhone } : {}), ...(o.buyerEmail ? { email: o.buyerEmail } : {}) },
    ...(o.message ? { message: o.message } : {}),
    ...(r.cardNumber ? { card_number: r.cardNumber } : {}),
    link_reference: r.linkReference,
    refunded_amount: r.refundedAmount,
    ...(o.failureReason ? { failure_reason: o.failureReason } : {}),
    created_at: new Date(o.createdAt).toISOString(),
    ...(o.paidAt ? { paid_at: new Date(o.paidAt).toISOString() } : {}),
  };
}

function scope(opts: Pick<ListShopOrdersOptions, 'businessId' | 'mode' | 'phone'>): SQL {
  const conditions: SQL[] = [eq(shopOrders.businessId, opts.businessId), eq(shopOrders.mode, opts.mode)];
  if (opts.phone?.trim()) {
    const candidates = nationalNumberCandidates(opts.phone);
    // A search that is no phone number finds nothing rather than everything.
    if (candidates.length === 0) conditions.push(sql`false`);
    else conditions.push(or(...candidates.flatMap((c) => [like(shopOrders.recipientPhone, `%${c}`), like(shopOrders.buyerPhone, `%${c}`)]))!);
  }
  return and(...conditions)!;
}

/** Newest first, id breaking ties. */
export async function listShopOrders(db: DbOrTx, opts: ListShopOrdersOptions): Promise<ShopOrderPage> {
  const { limit, offset, page } = opts.page;
  const where = scope(opts);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(columns)
      .from(shopOrders)
      .innerJoin(payments, eq(payments.id, shopOrders.paymentId))
      .leftJoin(cards, eq(cards.id, shopOrders.cardId))
      .where(where)
      .orderBy(desc(shopOrders.createdAt), desc(shopOrders.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: sql<number>`count(*)::int` }).from(shopOrders).where(where),
  ]);
  return { items: rows.map(toShopOrderRecord), total, page, limit, pages: pageCount(total, limit) };
}

export async function getShopOrder(db: DbOrTx, opts: { businessId: number; mode: Mode; reference: string }): Promise<ShopOrderRecord | null> {
  const [row] = await db
    .select(columns)
    .from(shopOrders)
    .innerJoin(payments, eq(payments.id, shopOrders.paymentId))
    .leftJoin(cards, eq(cards.id, shopOrders.cardId))
    .where(and(eq(shopOrders.businessId, opts.businessId), eq(shopOrders.mode, opts.mode), eq(shopOrders.reference, opts.reference)));
  return row ? toShopOrderRecord(row) : null;
}
