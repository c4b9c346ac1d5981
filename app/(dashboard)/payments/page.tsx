import Link from 'next/link';
import { HistoryFilters } from '@/components/history/history-filters';
import { Pager } from '@/components/history/pager';
import { TableScroll } from '@/components/history/table-scroll';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { EmptyState, PageHeader } from '@/components/ui/page-header';
import { StatusBadge } from '@/components/ui/status-badge';
import { can } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';
import { PAYMENT_STATUSES, PAYMENT_TYPES, parsePaymentFilters, searchPayments } from '@/lib/dashboard/search-payments';
import { getDb } from '@/lib/db/client';
import { TableHead } from '@/components/ui/table-head';

export const metadata = { title: 'Payments · Gift cards' };

const PAGE_SIZE = 25;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const TYPE_LABELS: Record<string, string> = { hosted: 'Hosted link', 'direct-charge': 'Direct charge' };

export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('history:read');
  const params = await searchParams;
  const filters = parsePaymentFilters(params);
  const page = await searchPayments(getDb(), {
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
        title="Payments"
        description={`Top-ups of your cards in ${session.mode} mode, newest first.`}
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
      {page.rows.length === 0 ? (
        <EmptyState title={filtered ? 'No payments match these filters' : 'No payments yet'}>
          {filtered ? 'Clear the filters or widen the dates.' : 'Hosted links and direct charges appear here once started.'}
        </EmptyState>
      ) : (
        <TableScroll label="Payments">
          <table className="w-full min-w-[720px] text-sm" data-testid="payments-table">
            <TableHead
              variant="scrolling"
              columns={['Reference', 'Type', 'Status', { label: 'Amount', numeric: true }, { label: 'Fee', numeric: true }, 'Card', 'Order', 'Created']}
            />
            <tbody>
              {page.rows.map((p) => (
                <tr key={p.id} className="border-t border-slate-100" data-testid={`payment-${p.linkReference}`}>
                  <td className="px-3 py-2 font-mono text-xs">
                    <Link
                      href={`/payments/${p.linkReference}`}
                      className="text-emerald-800 underline underline-offset-2 hover:text-emerald-950 focus-visible:outline-2 focus-visible:outline-emerald-700"
                    >
                      {p.linkReference}
                    </Link>
                  </td>
                  <td className="px-3 py-2">
                    {TYPE_LABELS[p.type] ?? p.type}
                    {p.paymentMethod ? ` · ${p.paymentMethod}` : ''}
                  </td>
                  <td className="px-3 py-2" data-testid="status">
                    <StatusBadge status={p.status} />
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{formatMoney(p.amount, p.currency)}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{formatMoney(p.serviceFee, p.currency)}</td>
                  <td className="px-3 py-2 font-mono text-xs">{p.cardNumber}</td>
                  <td className="px-3 py-2 text-xs">{p.merchantReference ?? '—'}</td>
                  <td className="px-3 py-2 text-xs text-slate-700">
                    <LocalTime iso={p.createdAt.toISOString()} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager path="/payments" filters={{ ...filters }} prev={page.prev} next={page.next} />
    </>
  );
}
