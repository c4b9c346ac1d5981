import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { refunds } from '../db/schema';
import { deadJobSubjects } from '../jobs/job-queue';
import type { Mode } from '../validation';
import type { Refund } from './refund-view';

export interface ListPaymentRefundsOptions {
  businessId: number;
  mode: Mode;
  paymentId: number;
}

/** A refund as the payment's page lists it: needsPerson when its job is dead (no longer sent; the provider's staff settle it by hand). */
export type ListedRefund = Refund & { needsPerson: boolean };

/** A payment's refunds, newest first, within the business and mode. */
export async function listPaymentRefunds(db: DbOrTx, opts: ListPaymentRefundsOptions): Promise<ListedRefund[]> {
  const rows = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.paymentId, opts.paymentId), eq(refunds.businessId, opts.businessId), eq(refunds.mode, opts.mode)))
    .orderBy(desc(refunds.createdAt), desc(refunds.id));
  const dead = await deadJobSubjects(
    db,
    'refund',
    rows.filter((r) => r.status === 'pending').map((r) => r.reference),
  );
  return rows.map((r) => ({ ...r, needsPerson: dead.has(r.reference) }));
}
