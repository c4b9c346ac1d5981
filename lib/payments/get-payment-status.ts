import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { payments } from '../db/schema';
import { ServiceError } from '../errors';
import type { Mode } from '../validation';
import { toPaymentRecord, type PaymentRecord } from './payment-view';

export interface GetPaymentStatusOptions {
  businessId: number;
  mode: Mode;
  linkReference: string;
}

export async function getPaymentStatus(db: DbOrTx, opts: GetPaymentStatusOptions): Promise<PaymentRecord> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.linkReference, opts.linkReference.trim()), eq(payments.businessId, opts.businessId), eq(payments.mode, opts.mode)));
  if (!row) throw new ServiceError('payment_not_found', 'No payment with this link_reference belongs to your business.');
  return toPaymentRecord(row);
}
