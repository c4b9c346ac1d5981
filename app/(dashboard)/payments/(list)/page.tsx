import Link from 'next/link';
import { ListFilters } from '@/components/payouts-list/list-filters';
import { liveKeys, searchString, toPaymentItems } from '@/components/payouts-list/list-items';
import { filterQuery, SORT_WORDS } from '@/components/payouts-list/list-view';
import { PaymentsList } from '@/components/payouts-list/payments-list';
import { Prefetched } from '@/components/providers/prefetched';
import { PageHeader } from '@/components/ui/page-header';
import { can } from '@/lib/auth/permissions';
import { paymentsListPage } from '@/lib/dashboard/history-lists';
import { PAYMENT_STATUSES, PAYMENT_TYPES } from '@/lib/dashboard/search-payments';
import { getDb } from '@/lib/db/client';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Payments · Gift cards' };

const TYPE_LABELS: Record<string, string> = { hosted: 'Checkout link', 'direct-charge': 'Wallet charge' };
const buttonLink =
  'inline-flex min-h-10 items-center rounded-lg px-4 py-2 text-sm font-semibold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-emerald-700';

export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('history:read');
  const params = await searchParams;
  const { filters, view, page, totals } = await paymentsListPage(getDb(), {
    businessId: session.businessId,
    mode: session.mode,
    timeZone: session.timeZone,
    params,
  });
  return (
    <>
      <PageHeader
        title="Payments"
        description={`Money paid onto your cards in ${session.mode} mode, ${SORT_WORDS[view.sort]}.`}
        actions={
          <>
            {can(session.role, 'history:export') && (
              <a
                href={`/payments/export${filterQuery({ ...filters })}`}
                download
                className={`${buttonLink} bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-100`}
              >
                Export CSV
              </a>
            )}
            {can(session.role, 'money:move') && (
              <Link href="/payments/new" className={`${buttonLink} bg-emerald-700 text-white hover:bg-emerald-800`}>
                New payment
              </Link>
            )}
          </>
        }
      />
      <ListFilters
        path="/payments"
        types={PAYMENT_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
        statuses={PAYMENT_STATUSES.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) }))}
        values={filters}
        view={view}
        searchHint="The link or provider reference, or any part of your order id"
      />
      <Prefetched entries={[[liveKeys.paymentList(searchString(params)), toPaymentItems(page, totals)]]}>
        <PaymentsList search={searchString(params)} filters={{ ...filters }} view={view} />
      </Prefetched>
    </>
  );
}
