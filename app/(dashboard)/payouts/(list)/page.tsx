import Link from 'next/link';
import { PAYOUT_TYPE_LABELS } from '@/components/history/payout-labels';
import { ListFilters } from '@/components/payouts-list/list-filters';
import { liveKeys, searchString, toPayoutItems } from '@/components/payouts-list/list-items';
import { filterQuery, SORT_WORDS } from '@/components/payouts-list/list-view';
import { PayoutsList } from '@/components/payouts-list/payouts-list';
import { Prefetched } from '@/components/providers/prefetched';
import { PageHeader } from '@/components/ui/page-header';
import { can } from '@/lib/auth/permissions';
import { payoutsListPage } from '@/lib/dashboard/history-lists';
import { PAYOUT_FILTER_TYPES, PAYOUT_STATUSES } from '@/lib/dashboard/search-payouts';
import { getDb } from '@/lib/db/client';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Payouts · Gift cards' };

const buttonLink =
  'inline-flex min-h-10 items-center rounded-lg px-4 py-2 text-sm font-semibold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-emerald-700';

export default async function PayoutsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('history:read');
  const params = await searchParams;
  const { filters, view, page, totals, merchantNames } = await payoutsListPage(getDb(), {
    businessId: session.businessId,
    mode: session.mode,
    timeZone: session.timeZone,
    params,
  });
  return (
    <>
      <PageHeader
        title="Payouts"
        description={`Money sent from your cards in ${session.mode} mode, ${SORT_WORDS[view.sort]}.`}
        actions={
          <>
            {can(session.role, 'history:export') && (
              <a
                href={`/payouts/export${filterQuery({ ...filters })}`}
                download
                className={`${buttonLink} bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-100`}
              >
                Export CSV
              </a>
            )}
            {can(session.role, 'money:move') && (
              <Link href="/payouts/new" className={`${buttonLink} bg-emerald-700 text-white hover:bg-emerald-800`}>
                Send payout
              </Link>
            )}
          </>
        }
      />
      <ListFilters
        path="/payouts"
        types={PAYOUT_FILTER_TYPES.map((t) => ({ value: t, label: PAYOUT_TYPE_LABELS[t] }))}
        statuses={PAYOUT_STATUSES.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) }))}
        values={filters}
        view={view}
        searchHint="Any part of a reference or account name, or a whole card or account number"
      />
      <Prefetched entries={[[liveKeys.payoutList(searchString(params)), toPayoutItems(page, merchantNames, totals)]]}>
        <PayoutsList search={searchString(params)} filters={{ ...filters }} view={view} />
      </Prefetched>
    </>
  );
}
