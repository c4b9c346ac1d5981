import { and, desc, eq } from 'drizzle-orm';
import { pageCount, type PageRequest } from '../pagination';
import type { DbOrTx } from '../db/client';
import { readCounter } from '../db/list-counters';
import { payments } from '../db/schema';
import type { Mode } from '../validation';
import { toPaymentRecord, type PaymentRecord } from './payment-view';

export interface ListPaymentsOptions {
  businessId: number;
  mode: Mode;
  page: PageRequest;
}

export interface PaymentPage {
  items: PaymentRecord[];
  total: number;
  page: number;
  limit: number;
  pages: number;
}

/** Newest first, id breaking ties, so paging neither repeats nor skips while nothing new arrives. */
export async function listPayments(db: DbOrTx, opts: ListPaymentsOptions): Promise<PaymentPage> {
  const { limit, offset, page } = opts.page;
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(payments)
      .where(and(eq(payments.businessId, opts.businessId), eq(payments.mode, opts.mode)))
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(limit)
      .offset(offset),
    readCounter(db, opts.businessId, opts.mode, 'payments'),
  ]);
  return { items: rows.map(toPaymentRecord), total, page, limit, pages: pageCount(total, limit) };
}
