import Link from 'next/link';
import { HistoryFilters } from '@/components/history/history-filters';
import { liveKeys, searchString, toPaymentItems } from '@/components/payouts-list/list-items';
import { Prefetched } from '@/components/providers/prefetched';
import { PaymentsList } from '@/components/payouts-list/payments-list';
import { PageHeader } from '@/components/ui/page-header';
import { can } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';
import { paymentsListPage } from '@/lib/dashboard/history-lists';
import { PAYMENT_STATUSES, PAYMENT_TYPES } from '@/lib/dashboard/search-payments';
import { getDb } from '@/lib/db/client';

export const metadata = { title: 'Payments · Gift cards' };

const PAGE_SIZE = 25;
const TYPE_LABELS: Record<string, string> = { hosted: 'Checkout link', 'direct-charge': 'Wallet charge' };

export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('history:read');
  const params = await searchParams;
  const { filters, page } = await paymentsListPage(getDb(), {
    businessId: session.businessId,
    mode: session.mode,
    timeZone: session.timeZone,
    params,
    limit: PAGE_SIZE,
  });
  return (
    <>
      <PageHeader
        title="Payments"
        description={`Money paid onto your cards in ${session.mode} mode, newest first.`}
        actions={
          can(session.role, 'money:move') && (
            <Link
              href="/payments/new"
              className="inline-flex min-h-10 items-center rounded-lg bg-emerald-700 px-4 py-2 text-sm font-semibold text-white hover:bg-emerald-800 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
            >
              New payment
            </Link>
          )
        }
      />
      <HistoryFilters
        path="/payments"
        types={PAYMENT_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
        statuses={PAYMENT_STATUSES.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) }))}
        values={filters}
      />
      <Prefetched entries={[[liveKeys.paymentList(searchString(params)), toPaymentItems(page)]]}>
        <PaymentsList search={searchString(params)} filters={{ ...filters }} />
      </Prefetched>
    </>
  );
}
