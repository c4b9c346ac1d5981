import { TimeZoneNote } from '@/components/ui/time-zone-note';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { getLocale, getTranslations } from 'next-intl/server';
import { OverviewCurrency } from '@/components/dashboard/overview-currency';
import { OverviewPeriodPicker } from '@/components/dashboard/overview-period-picker';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { EmptyState, PageHeader, Panel } from '@/components/ui/page-header';
import { RefundedBadge, StatusBadge } from '@/components/ui/status-badge';
import { bankName } from '@/components/history/payout-labels';
import { can } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';
import { getOverview, parseOverviewPeriod, type OverviewPeriod } from '@/lib/dashboard/overview';
import { ServiceError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { formatCalendarDay } from '@/lib/i18n/date-text';
import { isLocale } from '@/lib/i18n/locale';
import { dateSettingsOf } from '@/server/date-settings';

export async function generateMetadata() {
  const t = await getTranslations('Overview');
  return { title: t('metaTitle') };
}

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requirePage();
  if (!can(session.role, 'history:read')) redirect(can(session.role, 'cards:read') ? '/cards' : '/till');
  const sp = await searchParams;
  const t = await getTranslations('Overview');
  const shell = await getTranslations('Shell');
  const payouts = await getTranslations('Payouts');
  const payments = await getTranslations('Payments');
  const [dates, asked] = await Promise.all([dateSettingsOf(session), getLocale()]);
  const locale = isLocale(asked) ? asked : 'en';
  const showDay = (day: string) => formatCalendarDay(day, dates);
  // A status in the reader's words, the code itself for one the catalogue does not know.
  const statusLabel = (kind: string, status: string) =>
    kind === 'payout'
      ? payouts.has(`statuses.${status}`)
        ? payouts(`statuses.${status}`)
        : status
      : payments.has(`statuses.${status}`)
        ? payments(`statuses.${status}`)
        : status;
  const money = (minor: number, currency: string) => formatMoney(minor, currency, locale);
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
      <PageHeader title={t('title')} description={t('description', { mode: shell(`modes.${session.mode}`) })} />
      <div className="mb-6 grid gap-4 md:grid-cols-2">
        <Panel title={t('balancesNow')}>
          {overview.balances.length === 0 ? (
            <EmptyState title={t('noMoney')}>{t('noMoneyHint')}</EmptyState>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-slate-600">
                  <th scope="col" className="py-1 font-medium">
                    {t('currency')}
                  </th>
                  <th scope="col" className="py-1 pl-4 text-right font-medium">
                    {t('businessBalance')}
                  </th>
                  <th scope="col" className="py-1 pl-4 text-right font-medium">
                    {t('onCards')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {overview.balances.map((b) => (
                  <tr key={b.currency} className="border-t border-slate-100" data-testid={`balance-${b.currency}`}>
                    <td className="py-2 font-medium">{b.currency}</td>
                    <td className="py-2 pl-4 text-right tabular-nums">{money(b.business, b.currency)}</td>
                    <td className="py-2 pl-4 text-right tabular-nums">
                      {money(b.cards, b.currency)}{' '}
                      <span className="block text-xs text-slate-600 sm:inline sm:text-sm">{t('cardCount', { count: b.cardCount })}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Panel>
        <Panel title={t('recent')}>
          {overview.recent.length === 0 ? (
            <EmptyState title={t('noRecent')} />
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
                          ? payouts('types.topup')
                          : t('payoutOf', { type: payouts.has(`types.${r.type}`) ? payouts(`types.${r.type}`) : payouts('types.other') })
                        : t('paymentOf', {
                            type:
                              r.type === 'hosted'
                                ? payments('types.hosted')
                                : r.paymentMethod
                                  ? payments('types.walletVia', { wallet: bankName(r.paymentMethod) })
                                  : payments('types.direct-charge'),
                          })}
                    </Link>
                    <p className="text-xs text-slate-600">
                      <LocalTime iso={r.createdAt} />
                    </p>
                  </div>
                  <div className="flex items-center gap-2">
                    <span className="tabular-nums">{money(r.amount, r.currency)}</span>
                    <StatusBadge status={r.status} label={statusLabel(r.kind, r.status)} />
                    <RefundedBadge words={r.refundedAmount <= 0 ? null : r.refundedAmount >= r.amount ? payments('refunded') : payments('partlyRefunded')} />
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
              <span className="font-normal text-slate-600">{t('dayCount', { count: dayCount })}</span>
            </p>
            <p className="mt-1 max-w-3xl text-sm text-slate-600" data-testid="net-volume-definition">
              {t.rich('netVolumeDefinition', { term: (chunks) => <strong className="font-medium text-slate-800">{chunks}</strong> })}
            </p>
          </div>
          {volume.totals.length === 0 ? (
            <EmptyState title={t('nothingMoved')}>{t('nothingMovedHint')}</EmptyState>
          ) : (
            volume.totals.map((t) => <OverviewCurrency key={t.currency} totals={t} points={volume.days.filter((d) => d.currency === t.currency)} />)
          )}
        </div>
      )}
    </>
  );
}
