import { TimeZoneNote } from '@/components/ui/time-zone-note';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { OverviewCurrency } from '@/components/dashboard/overview-currency';
import { OverviewPeriodPicker } from '@/components/dashboard/overview-period-picker';
import { paymentTypeLabel, payoutTypeLabel, refundedWords } from '@/components/history/payout-labels';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { EmptyState, PageHeader, Panel } from '@/components/ui/page-header';
import { RefundedBadge, StatusBadge } from '@/components/ui/status-badge';
import { can } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';
import { getOverview, parseOverviewPeriod, type OverviewPeriod } from '@/lib/dashboard/overview';
import { ServiceError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';

export const metadata = { title: 'Overview · Gift cards' };

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const longDay = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
const showDay = (day: string) => longDay.format(new Date(`${day}T12:00:00Z`));

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requirePage();
  if (!can(session.role, 'history:read')) redirect('/cards');
  const sp = await searchParams;
  const input = { period: one(sp.period), from: one(sp.from)?.slice(0, 40), to: one(sp.to)?.slice(0, 40) };
  let period: OverviewPeriod | undefined;
  let periodError: { field: 'from' | 'to'; message: string } | undefined;
  try {
    period = parseOverviewPeriod(input, session.timeZone);
  } catch (e) {
    if (!(e instanceof ServiceError) || (e.field !== 'from' && e.field !== 'to')) throw e;
    periodError = { field: e.field, message: String(e.detail) };
  }
  const overview = await getOverview(getDb(), { businessId: session.businessId, mode: session.mode, timeZone: session.timeZone, period });
  const volume = overview.volume;
  const dayCount = volume ? volume.days.length / Math.max(1, volume.totals.length) : 0;
  return (
    <>
      <PageHeader title="Overview" description={`Balances now, and the money that moved in the period you choose, in ${session.mode} mode.`} />
      <div className="mb-6 grid gap-4 md:grid-cols-2">
        <Panel title="Balances now">
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
                    <RefundedBadge words={refundedWords(r.amount, r.refundedAmount)} />
                  </div>
                </li>
              ))}
            </ul>
          )}
          <TimeZoneNote className="mt-2" />
        </Panel>
      </div>
      <OverviewPeriodPicker kind={period?.kind ?? 'custom'} from={period?.from ?? input.from ?? ''} to={period?.to ?? input.to ?? ''} error={periodError} />
      {volume && (
        <div className="mb-4 space-y-4">
          <div>
            <p className="text-sm font-medium text-slate-900" data-testid="period-range">
              {volume.period.from === volume.period.to ? showDay(volume.period.from) : `${showDay(volume.period.from)} – ${showDay(volume.period.to)}`}{' '}
              <span className="font-normal text-slate-600">
                ({dayCount} {dayCount === 1 ? 'day' : 'days'})
              </span>
            </p>
            <p className="mt-1 max-w-3xl text-sm text-slate-600" data-testid="net-volume-definition">
              <strong className="font-medium text-slate-800">Net volume</strong> is money paid in (paid payments and card-to-card payouts from other businesses’
              cards: what your cards received) minus money sent out of the business (successful bank, wallet, business-to-business and card-to-card payouts to
              another business’s card: what left the cards, with the fee when the sender paid it). Card-to-card moves between your own cards and top-ups from
              your business balance stay inside the business: listed, not counted. Fees are the service fees on paid payments (paid by the customer on top) and
              on successful payouts. Each payment or payout counts on the day it was made, in its status now.
            </p>
          </div>
          {volume.totals.length === 0 ? (
            <EmptyState title="Nothing moved in this period">Payments and payouts made in these days appear here.</EmptyState>
          ) : (
            volume.totals.map((t) => <OverviewCurrency key={t.currency} totals={t} points={volume.days.filter((d) => d.currency === t.currency)} />)
          )}
        </div>
      )}
    </>
  );
}
