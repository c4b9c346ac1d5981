'use client';

import { HistoryList } from './history-list';
import { liveKeys, type PaymentItem } from './list-items';

/** The payments of one page; the live stream invalidates it when a payment is created or settles. */
export function PaymentsList({ search, filters }: { search: string; filters: Record<string, string | undefined> }) {
  return (
    <HistoryList<PaymentItem>
      kind="payments"
      search={search}
      filters={filters}
      queryKey={liveKeys.paymentList(search)}
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
