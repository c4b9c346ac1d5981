'use client';

import type { ListView } from '@/lib/dashboard/keyset-cursor';
import { HistoryList } from './history-list';
import { liveKeys, type PayoutItem } from './list-items';

/** What a payout's net is, said under its totals. */
const PAYOUT_NET_HINT =
  'Totals cover every payout the filters match, on every page and in any status (a failed payout’s money came back). Net is what left your cards, or your business balance for a top-up: the amount, plus the fee when the sender or customer pays it; when the receiver or your business pays it, the fee comes off what arrives.';

/** The payouts of one page and their totals; the live stream invalidates them when a payout is created or settles. */
export function PayoutsList({ search, filters, view }: { search: string; filters: Record<string, string | undefined>; view: ListView }) {
  return (
    <HistoryList<PayoutItem>
      kind="payouts"
      search={search}
      filters={filters}
      view={view}
      queryKey={liveKeys.payoutList(search)}
      totalsHint={PAYOUT_NET_HINT}
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
