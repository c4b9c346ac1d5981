import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { businesses, payments, shopOrders, shops } from '../db/schema';
import type { Mode } from '../validation';

/** What the hosted checkout page shows; the link reference itself is the customer's only credential. */
export interface Checkout {
  linkReference: string;
  businessName: string;
  mode: Mode;
  status: 'pending' | 'success' | 'failed' | 'cancelled';
  currency: string;
  amount: number;
  serviceFee: number;
  total: number;
  /** None for a shop order's payment: its card is the recipient's, of which the buyer learns nothing. */
  lastFour: string | null;
  /** None for a shop order's payment, as lastFour. */
  cardId: number | null;
  /** Live: Chapa's hosted page, where our page sends the customer to pay. */
  providerCheckoutUrl: string | null;
  createdAt: Date;
  completedAt: Date | null;
  /** How the business speaks to its customers: the page's language (unless `?lang`), calendar and wall clock. */
  customerLanguage: 'am' | 'en';
  calendar: 'ethiopic' | 'gregorian';
  timeZone: string;
  /** A shop order's payment: the page the buyer goes back to, which says what happens next. */
  orderPath: string | null;
}

export async function getCheckout(db: DbOrTx, linkReference: string): Promise<Checkout | undefined> {
  const [row] = await db
    .select({
      payment: payments,
      businessName: businesses.name,
      customerLanguage: businesses.customerLanguage,
      calendar: businesses.calendar,
      timeZone: businesses.timeZone,
      orderReference: shopOrders.reference,
      shopSlug: shops.slug,
    })
    .from(payments)
    .innerJoin(businesses, eq(businesses.id, payments.businessId))
    .leftJoin(shopOrders, eq(shopOrders.paymentId, payments.id))
    .leftJoin(shops, eq(shops.businessId, payments.businessId))
    .where(and(eq(payments.linkReference, linkReference), eq(payments.type, 'hosted')));
  if (!row) return undefined;
  const p = row.payment;
  return {
    linkReference: p.linkReference,
    businessName: row.businessName,
    mode: p.mode,
    status: p.status as Checkout['status'],
    currency: p.currency,
    amount: p.amount,
    serviceFee: p.serviceFee,
    total: p.amount + p.serviceFee,
    // A shop order's payment credits the recipient's card once paid: the buyer's page says nothing of it.
    lastFour: row.orderReference ? null : (p.cardNumber?.slice(-4) ?? null),
    cardId: row.orderReference ? null : p.cardId,
    providerCheckoutUrl: p.providerCheckoutUrl,
    createdAt: p.createdAt,
    completedAt: p.completedAt,
    customerLanguage: row.customerLanguage,
    calendar: row.calendar,
    timeZone: row.timeZone,
    orderPath: row.orderReference && row.shopSlug ? `/shop/${row.shopSlug}/orders/${row.orderReference}` : null,
  };
}
