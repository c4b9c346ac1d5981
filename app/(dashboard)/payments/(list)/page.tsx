import { getTranslations } from 'next-intl/server';
import { type HistoryListDescriptor, HistoryListPage } from '@/components/payouts-list/history-list-page';
import { liveKeys, searchString, toPaymentItems } from '@/components/payouts-list/list-items';
import { PaymentsList } from '@/components/payouts-list/payments-list';
import { DataAgeNote } from '@/components/ui/data-age-note';
import { Prefetched } from '@/components/providers/prefetched';
import { paymentsListPage } from '@/lib/dashboard/history-lists';
import { PAYMENT_STATUSES, PAYMENT_TYPES } from '@/lib/dashboard/search-payments';
import { pageRead } from '@/server/read-your-writes';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('Payments');
  return { title: t('metaTitle') };
}

export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('history:read');
  const params = await searchParams;
  const t = await getTranslations('Payments');
  const PAYMENTS: HistoryListDescriptor = {
    title: t('title'),
    holds: t('list.holds'),
    path: '/payments',
    newLink: { href: '/payments/new', label: t('list.new') },
    types: PAYMENT_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) })),
    statuses: PAYMENT_STATUSES.map((s) => ({ value: s, label: t(`filterStatuses.${s}`) })),
    searchHint: t('list.searchHint'),
  };
  const {
    value: { filters, view, page, totals },
    lagMs,
  } = await pageRead((db) =>
    paymentsListPage(db, {
      businessId: session.businessId,
      mode: session.mode,
      timeZone: session.timeZone,
      params,
    }),
  );
  return (
    <HistoryListPage list={PAYMENTS} role={session.role} mode={session.mode} filters={filters} view={view}>
      <DataAgeNote lagMs={lagMs} />
      <Prefetched entries={[[liveKeys.paymentList(searchString(params)), toPaymentItems(page, totals)]]}>
        <PaymentsList search={searchString(params)} filters={{ ...filters }} view={view} />
      </Prefetched>
    </HistoryListPage>
  );
}
