import { PAYOUT_TYPE_LABELS } from '@/components/history/payout-labels';
import { type HistoryListDescriptor, HistoryListPage } from '@/components/payouts-list/history-list-page';
import { liveKeys, searchString, toPayoutItems } from '@/components/payouts-list/list-items';
import { PayoutsList } from '@/components/payouts-list/payouts-list';
import { DataAgeNote } from '@/components/ui/data-age-note';
import { Prefetched } from '@/components/providers/prefetched';
import { payoutsListPage } from '@/lib/dashboard/history-lists';
import { PAYOUT_FILTER_TYPES, PAYOUT_STATUSES } from '@/lib/dashboard/search-payouts';
import { pageRead } from '@/server/read-your-writes';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Payouts · Gift cards' };

const PAYOUTS: HistoryListDescriptor = {
  title: 'Payouts',
  holds: 'Money sent from your cards',
  path: '/payouts',
  newLink: { href: '/payouts/new', label: 'Send payout' },
  uploadLink: { href: '/payouts/upload', label: 'Upload CSV', permission: 'payouts:upload' },
  types: PAYOUT_FILTER_TYPES.map((t) => ({ value: t, label: PAYOUT_TYPE_LABELS[t] })),
  statuses: PAYOUT_STATUSES.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) })),
  searchHint: 'Any part of a reference or account name, or a whole card or account number',
};

export default async function PayoutsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('history:read');
  const params = await searchParams;
  const {
    value: { filters, view, page, totals, merchantNames },
    lagMs,
  } = await pageRead((db) =>
    payoutsListPage(db, {
      businessId: session.businessId,
      mode: session.mode,
      timeZone: session.timeZone,
      params,
    }),
  );
  return (
    <HistoryListPage list={PAYOUTS} role={session.role} mode={session.mode} filters={filters} view={view}>
      <DataAgeNote lagMs={lagMs} />
      <Prefetched entries={[[liveKeys.payoutList(searchString(params)), toPayoutItems(page, merchantNames, totals)]]}>
        <PayoutsList search={searchString(params)} filters={{ ...filters }} view={view} />
      </Prefetched>
    </HistoryListPage>
  );
}
