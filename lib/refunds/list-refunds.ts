import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { refunds } from '../db/schema';
import type { Mode } from '../validation';
import type { Refund } from './refund-view';

export interface ListPaymentRefundsOptions {
  businessId: number;
  mode: Mode;
  paymentId: number;
}

/** A payment's refunds, newest first, within the business and mode. */
export function listPaymentRefunds(db: DbOrTx, opts: ListPaymentRefundsOptions): Promise<Refund[]> {
  return db
    .select()
    .from(refunds)
    .where(and(eq(refunds.paymentId, opts.paymentId), eq(refunds.businessId, opts.businessId), eq(refunds.mode, opts.mode)))
    .orderBy(desc(refunds.createdAt), desc(refunds.id));
}
