import { TimeZoneNote } from '@/components/ui/time-zone-note';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { VolumeChart } from '@/components/dashboard/volume-chart';
import { paymentTypeLabel, payoutTypeLabel } from '@/components/history/payout-labels';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { EmptyState, PageHeader, Panel } from '@/components/ui/page-header';
import { StatusBadge } from '@/components/ui/status-badge';
import { can } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';
import { getOverview } from '@/lib/dashboard/overview';
import { getDb } from '@/lib/db/client';

export const metadata = { title: 'Overview · Gift cards' };

export default async function OverviewPage() {
  const session = await requirePage();
  if (!can(session.role, 'history:read')) redirect('/cards');
  const overview = await getOverview(getDb(), session.businessId, session.mode, session.timeZone);
  const currencies = [...new Set(overview.volume.map((v) => v.currency))];
  return (
    <>
      <PageHeader title="Overview" description={`Balances and activity in ${session.mode} mode.`} />
      <div className="grid gap-4 md:grid-cols-2">
        <Panel title="Balances">
          {overview.balances.length === 0 ? (
            <EmptyState title="No money yet">Create a card and top it up to see balances here.</EmptyState>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-slate-600">
                  <th scope="col" className="py-1 font-medium">
                    Currency
                  </th>
                  <th scope="col" className="py-1 text-right font-medium">
                    Business balance
                  </th>
                  <th scope="col" className="py-1 text-right font-medium">
                    On cards
                  </th>
                </tr>
              </thead>
              <tbody>
                {overview.balances.map((b) => (
                  <tr key={b.currency} className="border-t border-slate-100" data-testid={`balance-${b.currency}`}>
                    <td className="py-2 font-medium">{b.currency}</td>
                    <td className="py-2 text-right tabular-nums">{formatMoney(b.business, b.currency)}</td>
                    <td className="py-2 text-right tabular-nums">
                      {formatMoney(b.cards, b.currency)}{' '}
                      <span className="text-slate-600">
                        ({b.cardCount} {b.cardCount === 1 ? 'card' : 'cards'})
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Panel>
        <Panel title="Recent activity">
          {overview.recent.length === 0 ? (
            <EmptyState title="No payments or payouts yet" />
          ) : (
            <ul className="divide-y divide-slate-100 text-sm">
              {overview.recent.map((r) => (
                <li key={`${r.kind}-${r.reference}`} className="flex items-center justify-between gap-2 py-2">
                  <div className="min-w-0">
                    <Link
                      href={r.kind === 'payout' ? `/payouts/${r.reference}` : `/payments/${r.reference}`}
                      className="font-medium text-slate-900 underline-offset-2 hover:underline"
                    >
                      {r.kind === 'payout'
                        ? r.isLedgerTopup
                          ? 'Top-up from business balance'
                          : `Payout · ${payoutTypeLabel({ payoutType: r.type, isLedgerTopup: false })}`
                        : `Payment · ${paymentTypeLabel(r.type, r.paymentMethod)}`}
                    </Link>
                    <p className="text-xs text-slate-600">
                      <LocalTime iso={r.createdAt} />
                    </p>
                  </div>
                  <div className="flex items-center gap-2">
                    <span className="tabular-nums">{formatMoney(r.amount, r.currency)}</span>
                    <StatusBadge status={r.status} />
                  </div>
                </li>
              ))}
            </ul>
          )}
          <TimeZoneNote className="mt-2" />
        </Panel>
      </div>
      <div className="mt-4">
        <Panel title="Volume over the last 30 days">
          {currencies.length === 0 ? (
            <EmptyState title="No completed payments or payouts in the last 30 days" />
          ) : (
            <div className="grid gap-6 md:grid-cols-2">
              {currencies.map((c) => (
                <div key={c}>
                  <h3 className="mb-1 text-sm font-medium text-slate-700">{c}</h3>
                  <VolumeChart currency={c} points={overview.volume.filter((v) => v.currency === c)} timeZone={session.timeZone} />
                </div>
              ))}
            </div>
          )}
        </Panel>
      </div>
    </>
  );
}
