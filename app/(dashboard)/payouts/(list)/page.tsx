import { getTranslations } from 'next-intl/server';
import { type HistoryListDescriptor, HistoryListPage } from '@/components/payouts-list/history-list-page';
import { liveKeys, searchString, toPayoutItems } from '@/components/payouts-list/list-items';
import { PayoutsList } from '@/components/payouts-list/payouts-list';
import { DataAgeNote } from '@/components/ui/data-age-note';
import { Prefetched } from '@/components/providers/prefetched';
import { payoutsListPage } from '@/lib/dashboard/history-lists';
import { PAYOUT_FILTER_TYPES, PAYOUT_STATUSES } from '@/lib/dashboard/search-payouts';
import { pageRead } from '@/server/read-your-writes';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('Payouts');
  return { title: t('metaTitle') };
}

export default async function PayoutsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('history:read');
  const params = await searchParams;
  const t = await getTranslations('Payouts');
  const PAYOUTS: HistoryListDescriptor = {
    title: t('title'),
    holds: t('list.holds'),
    path: '/payouts',
    newLink: { href: '/payouts/new', label: t('list.send') },
    uploadLink: { href: '/payouts/upload', label: t('list.upload'), permission: 'payouts:upload' },
    types: PAYOUT_FILTER_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) })),
    statuses: PAYOUT_STATUSES.map((s) => ({ value: s, label: t(`filterStatuses.${s}`) })),
    searchHint: t('list.searchHint'),
  };
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
