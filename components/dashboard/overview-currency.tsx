import { VolumeChart, type VolumePoint } from '@/components/dashboard/volume-chart';
import { useLocale, useTranslations } from 'next-intl';
import { formatMoney } from '@/components/ui/money';
import { Stat } from '@/components/ui/stat';
import type { PeriodTotals } from '@/lib/dashboard/overview';
import { isLocale } from '@/lib/i18n/locale';

const TYPE_ROWS = [
  { type: 'bank', counted: true },
  { type: 'b2b', counted: true },
  { type: 'card_to_card', counted: false },
  { type: 'topup', counted: false },
] as const;

/** One currency's figures for the period: net volume and what makes it, fees, failures, and the chart per day. */
// A figure cell: a column of the table from 640 px, a labelled figure of its own below that (the column headers are then read only by screen readers).
const figure =
  'py-2 pr-2 text-right tabular-nums whitespace-nowrap last:pr-0 max-sm:py-0 max-sm:text-left max-sm:before:block max-sm:before:text-xs max-sm:before:text-slate-600 max-sm:before:content-[attr(data-label)]';

export function OverviewCurrency({ totals, points }: { totals: PeriodTotals; points: VolumePoint[] }) {
  const c = totals.currency;
  const t = useTranslations('Overview');
  const payouts = useTranslations('Payouts');
  const asked = useLocale();
  const money = (minor: number) => formatMoney(minor, c, isLocale(asked) ? asked : 'en');
  const pending = totals.pending.payments.count + totals.pending.payouts.count;
  return (
    <section aria-labelledby={`period-${c}-title`} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6" data-testid={`period-${c}`}>
      <h2 id={`period-${c}-title`} className="mb-3 text-base font-semibold text-slate-900">
        {c}
      </h2>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Stat label={t('netVolume')} detail={t('netVolumeDetail')} testId="net-volume" box="highlight" className="col-span-2 lg:col-span-1">
          {money(totals.netVolume)}
        </Stat>
        <Stat
          label={t('moneyIn')}
          detail={`${t('paidPayments', { count: totals.paymentsIn.count })}${totals.cardToCardIn.count ? t('cardToCardIn', { count: totals.cardToCardIn.count }) : ''}`}
          testId="payments-in"
          size="sm"
          box="muted"
        >
          {money(totals.paymentsIn.amount + totals.cardToCardIn.amount)}
        </Stat>
        <Stat
          label={t('payoutsOut')}
          detail={`${t('payouts', { count: totals.payoutsOut.count })}${totals.cardToCardOut.count ? t('cardToCardOut', { count: totals.cardToCardOut.count }) : ''}`}
          testId="payouts-out"
          size="sm"
          box="muted"
        >
          {money(totals.payoutsOut.amount)}
        </Stat>
        <Stat label={t('fees')} detail={t('feesOnPayments', { amount: money(totals.paymentsIn.fee) })} testId="fees" size="sm" box="muted">
          {money(totals.fees)}
        </Stat>
        <Stat
          label={t('failed')}
          detail={`${t('failedDetail', { payments: totals.failed.payments, payouts: totals.failed.payouts })}${pending ? t('pendingSuffix', { count: pending }) : ''}`}
          testId="failed"
          size="sm"
          box="muted"
        >
          {String(totals.failed.payments + totals.failed.payouts)}
        </Stat>
      </dl>
      {/* Under 640 px each type is a block of three labelled figures: four columns clipped the fees at 390 px. */}
      <div className="mt-4">
        <table className="w-full text-sm" data-testid="payouts-by-type">
          <caption className="sr-only">{t('byTypeCaption', { currency: c })}</caption>
          <thead>
            <tr className="text-left text-slate-600 max-sm:flex">
              <th scope="col" className="py-1 pr-2 font-medium">
                {t('byType')}
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium max-sm:sr-only">
                {t('count')}
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium max-sm:sr-only">
                {t('amount')}
              </th>
              <th scope="col" className="py-1 text-right font-medium max-sm:sr-only">
                {t('fees')}
              </th>
            </tr>
          </thead>
          <tbody>
            {TYPE_ROWS.map(({ type, counted }) => {
              const row = totals.payoutsByType[type];
              return (
                <tr
                  key={type}
                  className="border-t border-slate-100 max-sm:flex max-sm:flex-wrap max-sm:gap-x-6 max-sm:gap-y-1 max-sm:py-2"
                  data-testid={`payouts-${type}`}
                >
                  <th scope="row" className="py-2 pr-2 text-left font-normal text-slate-800 max-sm:basis-full max-sm:py-0">
                    {payouts(`types.${type}`)}
                    {!counted && type === 'card_to_card' && (
                      <span className="block text-xs text-slate-600">
                        {totals.cardToCardOut.count ? t('cardToCardSplit', { amount: money(totals.cardToCardOut.amount) }) : t('cardToCardNote')}
                      </span>
                    )}
                    {!counted && type !== 'card_to_card' && <span className="block text-xs text-slate-600">{t('insideBusiness')}</span>}
                  </th>
                  <td data-label={t('count')} className={figure}>
                    {row.count}
                  </td>
                  <td data-label={t('amount')} className={figure}>
                    {money(row.amount)}
                  </td>
                  <td data-label={t('fees')} className={figure}>
                    {money(row.fee)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {totals.pending.payouts.count > 0 && (
        <p className="mt-2 text-xs text-slate-600">
          {t('pendingPayouts', { count: totals.pending.payouts.count, amount: money(totals.pending.payouts.amount) })}
        </p>
      )}
      <div className="mt-6">
        {/* A new period is a new chart: its focused day starts again at the last one. */}
        <VolumeChart key={`${points[0]?.day}-${points.length}`} currency={c} points={points} />
      </div>
    </section>
  );
}
