import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { payments } from '../db/schema';
import type { Payment } from '../payments/payment-view';
import { paymentSearchCondition } from '../search/search-everything';
import type { Mode } from '../validation';
import { dayRange, parseHistoryFilters, sortedKeysetQuery, toKeysetPage, type KeysetPage, type ListSort } from './keyset-cursor';

export const PAYMENT_TYPES = ['hosted', 'direct-charge'] as const;
export const PAYMENT_STATUSES = ['pending', 'success', 'failed', 'cancelled'] as const;

export interface PaymentFilters {
  type?: (typeof PAYMENT_TYPES)[number];
  status?: (typeof PAYMENT_STATUSES)[number];
  from?: string;
  to?: string;
  /** The search box: a link or provider reference, or any part of the order id (merchant_reference). */
  q?: string;
}

export function parsePaymentFilters(params: Record<string, string | string[] | undefined>): PaymentFilters {
  return parseHistoryFilters(params, PAYMENT_TYPES, PAYMENT_STATUSES);
}

export interface SearchPaymentsOptions {
  businessId: number;
  mode: Mode;
  /** The business's zone: the from/to days of the filters are its calendar days. */
  timeZone: string;
  filters: PaymentFilters;
  limit: number;
  /** The list's order; newest first when left out. */
  sort?: ListSort;
  after?: string | null;
  before?: string | null;
}

/** The filters' conditions without the dates: the totals read the dates from their rollup. */
export function paymentFilterConditions(businessId: number, mode: Mode, f: Omit<PaymentFilters, 'from' | 'to'>): SQL[] {
  const where: SQL[] = [eq(payments.businessId, businessId), eq(payments.mode, mode)];
  if (f.type) where.push(eq(payments.type, f.type));
  if (f.status) where.push(eq(payments.status, f.status));
  if (f.q) where.push(paymentSearchCondition(f.q) ?? sql`false`);
  return where;
}

/** One page of the business's payments in the chosen order, by keyset on the list index or the amount index. */
export async function searchPayments(db: DbOrTx, opts: SearchPaymentsOptions): Promise<KeysetPage<Payment>> {
  const f = opts.filters;
  const keyset = sortedKeysetQuery(payments, opts.sort ?? 'newest', opts.after, opts.before);
  const rows = await db
    .select()
    .from(payments)
    .where(and(...paymentFilterConditions(opts.businessId, opts.mode, f), ...dayRange(payments.createdAt, f.from, f.to, opts.timeZone), ...keyset.where))
    .orderBy(...keyset.orderBy)
    .limit(opts.limit + 1);
  return toKeysetPage(rows, opts.limit, keyset.direction, keyset.encode);
}

/** Every payment matching the filters, in batches, for streaming exports: never the whole set in memory. */
export async function* paymentBatches(db: DbOrTx, opts: Omit<SearchPaymentsOptions, 'after' | 'before' | 'limit'>, batchSize = 500): AsyncGenerator<Payment[]> {
  let after: string | null = null;
  for (;;) {
    const page: KeysetPage<Payment> = await searchPayments(db, { ...opts, limit: batchSize, after });
    if (page.rows.length) yield page.rows;
    if (!page.next) return;
    after = page.next;
  }
}
