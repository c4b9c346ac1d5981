import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { businesses } from '../db/schema';
import type { Payment } from '../payments/payment-view';
import type { PayoutRow } from '../payouts/payout-view';
import type { Mode } from '../validation';
import { paymentTotals, payoutTotals, type HistoryTotals } from './history-totals';
import { parseListView, type KeysetPage, type ListView } from './keyset-cursor';
import { parsePaymentFilters, searchPayments, type PaymentFilters, type SearchPaymentsOptions } from './search-payments';
import { parsePayoutFilters, searchPayouts, type PayoutFilters, type SearchPayoutsOptions } from './search-payouts';

type Params = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export interface HistoryListOptions {
  businessId: number;
  mode: Mode;
  timeZone: string;
  /** The page's search parameters: the filters, the order and size (sort, size) and the keyset cursor (after / before). */
  params: Params;
  /** Overrides the page size the parameters ask for. */
  limit?: number;
}

/** The names of the businesses behind merchant ids, for "To another business" payouts: people see names, not ids. */
export async function merchantNames(db: DbOrTx, merchantIds: (string | null)[]): Promise<Record<string, string>> {
  const ids = [...new Set(merchantIds.filter((m): m is string => !!m))];
  if (ids.length === 0) return {};
  const rows = await db.select({ merchantId: businesses.merchantId, name: businesses.name }).from(businesses).where(inArray(businesses.merchantId, ids));
  return Object.fromEntries(rows.map((r) => [r.merchantId, r.name]));
}

/** The business, mode, zone, order, size and cursors of a list page, as both searches take them. */
const pageOptions = (o: HistoryListOptions, view: ListView) => ({
  businessId: o.businessId,
  mode: o.mode,
  timeZone: o.timeZone,
  sort: view.sort,
  limit: o.limit ?? view.size,
  after: one(o.params.after),
  before: one(o.params.before),
});

export interface HistoryListPage<F, T> {
  filters: F;
  view: ListView;
  page: KeysetPage<T>;
  /** The count and sums of everything the filters match, not only this page. */
  totals: HistoryTotals;
}

/** One page of payouts as the dashboard lists it (the page and its live-updated JSON share it), its totals, and the receiving businesses' names. */
export async function payoutsListPage(
  db: DbOrTx,
  o: HistoryListOptions,
  extra: Partial<SearchPayoutsOptions> = {},
): Promise<HistoryListPage<PayoutFilters, PayoutRow> & { merchantNames: Record<string, string> }> {
  const filters = parsePayoutFilters(o.params);
  const view = parseListView(o.params);
  const [page, totals] = await Promise.all([
    searchPayouts(db, { ...pageOptions(o, view), filters, ...extra }),
    payoutTotals(db, { businessId: o.businessId, mode: o.mode, timeZone: o.timeZone, filters }),
  ]);
  return {
    filters,
    view,
    page,
    totals,
    merchantNames: await merchantNames(
      db,
      page.rows.map((r) => r.merchantId),
    ),
  };
}

/** One page of payments as the dashboard lists it, with its totals. */
export async function paymentsListPage(
  db: DbOrTx,
  o: HistoryListOptions,
  extra: Partial<SearchPaymentsOptions> = {},
): Promise<HistoryListPage<PaymentFilters, Payment>> {
  const filters = parsePaymentFilters(o.params);
  const view = parseListView(o.params);
  const [page, totals] = await Promise.all([
    searchPayments(db, { ...pageOptions(o, view), filters, ...extra }),
    paymentTotals(db, { businessId: o.businessId, mode: o.mode, timeZone: o.timeZone, filters }),
  ]);
  return { filters, view, page, totals };
}
