'use client';

import { HistoryList } from './history-list';
import { liveKeys, type PayoutItem } from './list-items';

/** The payouts of one page; the live stream invalidates it when a payout is created or settles. */
export function PayoutsList({ search, filters }: { search: string; filters: Record<string, string | undefined> }) {
  return (
    <HistoryList<PayoutItem>
      kind="payouts"
      search={search}
      filters={filters}
      queryKey={liveKeys.payoutList(search)}
      emptyText="Payouts sent from the dashboard or the API appear here."
      parties={['From', 'To']}
      partyCells={(p) => [
        <span key="from" className={p.sourceCard ? 'font-mono' : ''}>
          {p.sourceCard ?? 'Business balance'}
        </span>,
        p.destination,
      ]}
    />
  );
}
