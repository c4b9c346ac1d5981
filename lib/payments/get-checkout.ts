import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { businesses, payments } from '../db/schema';
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
  lastFour: string;
  cardId: number;
  /** Live: Chapa's hosted page, where our page sends the customer to pay. */
  providerCheckoutUrl: string | null;
  createdAt: Date;
  completedAt: Date | null;
  /** How the business speaks to its customers: the page's language (unless `?lang`), calendar and wall clock. */
  customerLanguage: 'am' | 'en';
  calendar: 'ethiopic' | 'gregorian';
  timeZone: string;
}

export async function getCheckout(db: DbOrTx, linkReference: string): Promise<Checkout | undefined> {
  const [row] = await db
    .select({
      payment: payments,
      businessName: businesses.name,
      customerLanguage: businesses.customerLanguage,
      calendar: businesses.calendar,
      timeZone: businesses.timeZone,
    })
    .from(payments)
    .innerJoin(businesses, eq(businesses.id, payments.businessId))
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
    lastFour: p.cardNumber.slice(-4),
    cardId: p.cardId,
    providerCheckoutUrl: p.providerCheckoutUrl,
    createdAt: p.createdAt,
    completedAt: p.completedAt,
    customerLanguage: row.customerLanguage,
    calendar: row.calendar,
    timeZone: row.timeZone,
  };
}
