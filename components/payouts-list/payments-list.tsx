'use client';

import type { ListView } from '@/lib/dashboard/keyset-cursor';
import { HistoryList } from './history-list';
import { liveKeys, type PaymentItem } from './list-items';

/** What a payment's net is, said under its totals. */
const PAYMENT_NET_HINT =
  'Totals cover every payment the filters match, on every page and in any status (only successful payments moved money). Net is what your cards received: the amount. The customer paid the amount plus the fee.';

/** The payments of one page and their totals; the live stream invalidates them when a payment is created or settles. */
export function PaymentsList({ search, filters, view }: { search: string; filters: Record<string, string | undefined>; view: ListView }) {
  return (
    <HistoryList<PaymentItem>
      kind="payments"
      search={search}
      filters={filters}
      view={view}
      queryKey={liveKeys.paymentList(search)}
      totalsHint={PAYMENT_NET_HINT}
      emptyText="Checkout links and wallet charges appear here once started."
      parties={['Card', 'Order']}
      partyCells={(p) => [
        <span key="card" className="font-mono">
          {p.cardNumber}
        </span>,
        p.orderReference ?? '—',
      ]}
    />
  );
}
