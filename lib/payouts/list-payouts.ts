import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { readCounter } from '../db/list-counters';
import { payouts } from '../db/schema';
import { pageCount, type PageRequest } from '../pagination';
import type { Mode } from '../validation';
import { toPayoutListItem } from './payout-view';

export interface ListPayoutsOptions {
  businessId: number;
  mode: Mode;
  page: PageRequest;
}

/**
 * The card payouts, newest first, ties by id so paging is stable; the total comes from
 * counters, not a COUNT. Ledger top-ups debit no card, so they are not card payouts: they
 * have their own counter and show through their status endpoint and the dashboard.
 */
export async function listPayouts(db: DbOrTx, opts: ListPayoutsOptions) {
  const { limit, offset, page } = opts.page;
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(payouts)
      .where(and(eq(payouts.businessId, opts.businessId), eq(payouts.mode, opts.mode), eq(payouts.isLedgerTopup, false)))
      .orderBy(desc(payouts.createdAt), desc(payouts.id))
      .limit(limit)
      .offset(offset),
    readCounter(db, opts.businessId, opts.mode, 'payouts'),
  ]);
  return { items: rows.map(toPayoutListItem), total, page, limit, pages: pageCount(total, limit) };
}
