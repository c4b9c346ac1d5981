import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { payouts } from '../db/schema';
import type { PayoutRow } from '../payouts/payout-view';
import { payoutSearchCondition } from '../search/search-everything';
import type { Mode } from '../validation';
import { dayRange, parseHistoryFilters, sortedKeysetQuery, toKeysetPage, type KeysetPage, type ListSort } from './keyset-cursor';

/** The dashboard's payout kinds: ledger top-ups are bank payouts to `link`, shown apart. */
export const PAYOUT_FILTER_TYPES = ['card_to_card', 'b2b', 'bank', 'topup'] as const;
export const PAYOUT_STATUSES = ['pending', 'success', 'failed'] as const;

export interface PayoutFilters {
  type?: (typeof PAYOUT_FILTER_TYPES)[number];
  status?: (typeof PAYOUT_STATUSES)[number];
  from?: string;
  to?: string;
  /** The search box: a payout reference (initiator or provider). */
  q?: string;
}

export function parsePayoutFilters(params: Record<string, string | string[] | undefined>): PayoutFilters {
  return parseHistoryFilters(params, PAYOUT_FILTER_TYPES, PAYOUT_STATUSES);
}

export interface SearchPayoutsOptions {
  businessId: number;
  mode: Mode;
  /** The business's zone: the from/to days of the filters are its calendar days. */
  timeZone: string;
  filters: PayoutFilters;
  limit: number;
  /** The list's order; newest first when left out. */
  sort?: ListSort;
  /** The page after this cursor, in the list's order. */
  after?: string | null;
  /** The page before this cursor. */
  before?: string | null;
}

/** The filters' conditions without the dates: the totals read the dates from their rollup. */
export function payoutFilterConditions(businessId: number, mode: Mode, f: Omit<PayoutFilters, 'from' | 'to'>): SQL[] {
  const where: SQL[] = [eq(payouts.businessId, businessId), eq(payouts.mode, mode)];
  if (f.type === 'topup') where.push(eq(payouts.payoutType, 'bank'), eq(payouts.isLedgerTopup, true));
  else if (f.type === 'bank') where.push(eq(payouts.payoutType, 'bank'), eq(payouts.isLedgerTopup, false));
  else if (f.type) where.push(eq(payouts.payoutType, f.type));
  if (f.status) where.push(eq(payouts.status, f.status));
  if (f.q) where.push(payoutSearchCondition(f.q, { businessId, mode }) ?? sql`false`);
  return where;
}

/**
 * One page of the business's payouts in the chosen order, by keyset on an
 * index in that order ((business, mode, created_at, id) or (business, mode,
 * amount, id)): the cost does not grow with the number of payouts or with
 * how deep the page is.
 */
export async function searchPayouts(db: DbOrTx, opts: SearchPayoutsOptions): Promise<KeysetPage<PayoutRow>> {
  const f = opts.filters;
  const keyset = sortedKeysetQuery(payouts, opts.sort ?? 'newest', opts.after, opts.before);
  const rows = await db
    .select()
    .from(payouts)
    .where(and(...payoutFilterConditions(opts.businessId, opts.mode, f), ...dayRange(payouts.createdAt, f.from, f.to, opts.timeZone), ...keyset.where))
    .orderBy(...keyset.orderBy)
    .limit(opts.limit + 1);
  return toKeysetPage(rows, opts.limit, keyset.direction, keyset.encode);
}

/** Every payout matching the filters, in batches, for streaming exports: never the whole set in memory. */
export async function* payoutBatches(db: DbOrTx, opts: Omit<SearchPayoutsOptions, 'after' | 'before' | 'limit'>, batchSize = 500): AsyncGenerator<PayoutRow[]> {
  let after: string | null = null;
  for (;;) {
    const page: KeysetPage<PayoutRow> = await searchPayouts(db, { ...opts, limit: batchSize, after });
    if (page.rows.length) yield page.rows;
    if (!page.next) return;
    after = page.next;
  }
}
