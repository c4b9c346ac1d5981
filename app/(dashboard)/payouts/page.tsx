import Link from 'next/link';
import { HistoryFilters } from '@/components/history/history-filters';
import { Pager } from '@/components/history/pager';
import { PAYOUT_TYPE_LABELS, payoutDestination, payoutTypeLabel } from '@/components/history/payout-labels';
import { TableScroll } from '@/components/history/table-scroll';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { EmptyState, PageHeader } from '@/components/ui/page-header';
import { StatusBadge } from '@/components/ui/status-badge';
import { can } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';
import { PAYOUT_FILTER_TYPES, PAYOUT_STATUSES, parsePayoutFilters, searchPayouts } from '@/lib/dashboard/search-payouts';
import { getDb } from '@/lib/db/client';
import { filterQuery } from '@/components/history/history-filters';
import { TableHead } from '@/components/ui/table-head';

export const metadata = { title: 'Payouts · Gift cards' };

const PAGE_SIZE = 25;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const buttonLink =
  'inline-flex min-h-10 items-center rounded-lg px-4 py-2 text-sm font-semibold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-emerald-700';

export default async function PayoutsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('history:read');
  const params = await searchParams;
  const filters = parsePayoutFilters(params);
  const page = await searchPayouts(getDb(), {
    businessId: session.businessId,
    mode: session.mode,
    filters,
    limit: PAGE_SIZE,
    after: one(params.after),
    before: one(params.before),
  });
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <PageHeader
        title="Payouts"
        description={`Money sent from your cards in ${session.mode} mode, newest first.`}
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
      <HistoryFilters
        path="/payouts"
        types={PAYOUT_FILTER_TYPES.map((t) => ({ value: t, label: PAYOUT_TYPE_LABELS[t] }))}
        statuses={PAYOUT_STATUSES.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) }))}
        values={filters}
      />
      {page.rows.length === 0 ? (
        <EmptyState title={filtered ? 'No payouts match these filters' : 'No payouts yet'}>
          {filtered ? 'Clear the filters or widen the dates.' : 'Payouts sent from the dashboard or the API appear here.'}
        </EmptyState>
      ) : (
        <TableScroll label="Payouts">
          <table className="w-full min-w-[760px] text-sm" data-testid="payouts-table">
            <TableHead
              variant="scrolling"
              columns={[
                'Reference',
                'Type',
                'Status',
                { label: 'Amount', numeric: true },
                { label: 'Fee', numeric: true },
                'Source card',
                'Destination',
                'Created',
              ]}
            />
            <tbody>
              {page.rows.map((p) => (
                <tr key={p.id} className="border-t border-slate-100" data-testid={`payout-${p.reference}`}>
                  <td className="px-3 py-2 font-mono text-xs">
                    <Link
                      href={`/payouts/${p.reference}`}
                      className="text-emerald-800 underline underline-offset-2 hover:text-emerald-950 focus-visible:outline-2 focus-visible:outline-emerald-700"
                    >
                      {p.reference}
                    </Link>
                  </td>
                  <td className="px-3 py-2">{payoutTypeLabel(p)}</td>
                  <td className="px-3 py-2" data-testid="status">
                    <StatusBadge status={p.status} />
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{formatMoney(p.amount, p.currency)}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{formatMoney(p.serviceFee, p.currency)}</td>
                  <td className={`px-3 py-2 text-xs ${p.sourceCardNumber ? 'font-mono' : ''}`}>{p.sourceCardNumber ?? 'Business account'}</td>
                  <td className="px-3 py-2 text-xs">{payoutDestination(p)}</td>
                  <td className="px-3 py-2 text-xs text-slate-700">
                    <LocalTime iso={p.createdAt.toISOString()} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager path="/payouts" filters={{ ...filters }} prev={page.prev} next={page.next} />
    </>
  );
}
