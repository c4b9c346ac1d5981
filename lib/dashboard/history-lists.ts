import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { businesses } from '../db/schema';
import type { Mode } from '../validation';
import type { KeysetPage } from './keyset-cursor';
import { parsePaymentFilters, searchPayments, type PaymentFilters, type SearchPaymentsOptions } from './search-payments';
import { parsePayoutFilters, searchPayouts, type PayoutFilters, type SearchPayoutsOptions } from './search-payouts';
import type { PayoutRow } from '../payouts/payout-view';
import type { Payment } from '../payments/payment-view';

type Params = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export interface HistoryListOptions {
  businessId: number;
  mode: Mode;
  timeZone: string;
  /** The page's search parameters: the filters and the keyset cursor (after / before). */
  params: Params;
  limit: number;
}

/** The names of the businesses behind merchant ids, for "To another business" payouts: people see names, not ids. */
export async function merchantNames(db: DbOrTx, merchantIds: (string | null)[]): Promise<Record<string, string>> {
  const ids = [...new Set(merchantIds.filter((m): m is string => !!m))];
  if (ids.length === 0) return {};
  const rows = await db.select({ merchantId: businesses.merchantId, name: businesses.name }).from(businesses).where(inArray(businesses.merchantId, ids));
  return Object.fromEntries(rows.map((r) => [r.merchantId, r.name]));
}

/** The business, mode, zone, size and cursors of a list page, as both searches take them. */
const pageOptions = (o: HistoryListOptions) => ({
  businessId: o.businessId,
  mode: o.mode,
  timeZone: o.timeZone,
  limit: o.limit,
  after: one(o.params.after),
  before: one(o.params.before),
});

/** One page of payouts as the dashboard lists it (the page and its live-updated JSON share it), with the receiving businesses' names. */
export async function payoutsListPage(
  db: DbOrTx,
  o: HistoryListOptions,
  extra: Partial<SearchPayoutsOptions> = {},
): Promise<{ filters: PayoutFilters; page: KeysetPage<PayoutRow>; merchantNames: Record<string, string> }> {
  const filters = parsePayoutFilters(o.params);
  const page = await searchPayouts(db, { ...pageOptions(o), filters, ...extra });
  return {
    filters,
    page,
    merchantNames: await merchantNames(
      db,
      page.rows.map((r) => r.merchantId),
    ),
  };
}

/** One page of payments as the dashboard lists it. */
export async function paymentsListPage(
  db: DbOrTx,
  o: HistoryListOptions,
  extra: Partial<SearchPaymentsOptions> = {},
): Promise<{ filters: PaymentFilters; page: KeysetPage<Payment> }> {
  const filters = parsePaymentFilters(o.params);
  const page = await searchPayments(db, { ...pageOptions(o), filters, ...extra });
  return { filters, page };
}
