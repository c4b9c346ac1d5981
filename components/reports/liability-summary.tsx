import { useLocale, useTranslations } from 'next-intl';
import { formatMoney as formatMoneyIn } from '@/components/ui/money';
import { Stat } from '@/components/ui/stat';
import { EmptyState } from '@/components/ui/page-header';
import { AGE_BUCKETS, type LiabilityReport } from '@/lib/reports/liability/definitions';

/** Share of a total in whole percent, or "<1%" for a sliver that would read as nothing. */
function share(part: number, total: number): string {
  if (total === 0 || part === 0) return '0%';
  const percent = Math.round((part * 100) / total);
  return percent === 0 ? '<1%' : `${percent}%`;
}

/** Per currency: what is owed at the day's end, on how many cards, and how it ages by each card's last movement. */
export function LiabilitySummary({ report, dayLabel }: { report: LiabilityReport; dayLabel: string }) {
  const t = useTranslations('ReportsLiabilityPanels');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const formatMoney = (minor: number, currency: string) => formatMoneyIn(minor, currency, locale);
  if (report.currencies.length === 0) {
    return <EmptyState title={t('summary.emptyTitle', { day: dayLabel })}>{t('summary.emptyText')}</EmptyState>;
  }
  return (
    <div className="grid gap-4">
      {report.currencies.map((c) => {
        const matches = c.ledgerBalanceNow === c.balance;
        return (
          <section
            key={c.currency}
            aria-labelledby={`liability-${c.currency}`}
            data-testid={`liability-${c.currency}`}
            className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
          >
            <h2 id={`liability-${c.currency}`} className="text-base font-semibold text-slate-900">
              {t('summary.owed', { currency: c.currency })}
            </h2>
            <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
              <Stat label={t('summary.outstanding')} size="lg" valueTestId="liability-total" className="col-span-2 sm:col-span-1">
                {formatMoney(c.balance, c.currency)}
              </Stat>
              <Stat label={t('summary.cards')} size="sm" valueTestId="liability-cards">
                {c.cards.toLocaleString('en')}
              </Stat>
              <Stat
                label={t('summary.dormant', { days: report.dormantDays })}
                size="sm"
                valueTestId="liability-dormant"
                detail={t('summary.dormantOn', { count: c.dormantCards })}
              >
                {formatMoney(c.dormantBalance, c.currency)}
              </Stat>
            </dl>
            {c.heldForApproval > 0 && (
              <p className="mt-3 text-sm text-slate-700" data-testid="liability-held">
                {t('summary.held', { amount: formatMoney(c.heldForApproval, c.currency) })}
              </p>
            )}
            {report.isToday && (
              <p className={`mt-3 text-sm ${matches ? 'text-emerald-800' : 'text-red-700'}`} data-testid="liability-reconciled">
                {matches
                  ? t('summary.matches', { amount: formatMoney(c.ledgerBalanceNow, c.currency) })
                  : t('summary.differs', { amount: formatMoney(c.ledgerBalanceNow, c.currency) })}
              </p>
            )}
            <div className="mt-4 overflow-x-auto">
              <table className="w-full text-sm" data-testid={`aging-${c.currency}`}>
                <caption className="mb-2 text-left text-sm font-medium text-slate-800">{t('summary.agingCaption')}</caption>
                <thead className="bg-slate-50 text-left text-slate-700">
                  <tr>
                    <th scope="col" className="px-2 py-2 sm:px-3 font-medium">
                      {t('summary.lastActivity')}
                    </th>
                    <th scope="col" className="px-2 py-2 sm:px-3 text-right font-medium">
                      {t('summary.cardsColumn')}
                    </th>
                    <th scope="col" className="px-2 py-2 sm:px-3 text-right font-medium">
                      {t('summary.balance')}
                    </th>
                    <th scope="col" className="px-2 py-2 sm:px-3 text-right font-medium">
                      {t('summary.share')}
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {AGE_BUCKETS.map((b, i) => {
                    const bucket = c.buckets[i];
                    return (
                      <tr key={b.key} data-testid={`bucket-${b.key}`}>
                        <th scope="row" className="whitespace-nowrap px-2 py-2 sm:px-3 text-left font-normal">
                          {t(`summary.buckets.${b.key}`)}
                        </th>
                        <td className="px-2 py-2 sm:px-3 text-right tabular-nums" data-testid="bucket-cards">
                          {bucket.cards.toLocaleString('en')}
                        </td>
                        <td className="whitespace-nowrap px-2 py-2 sm:px-3 text-right tabular-nums" data-testid="bucket-balance">
                          {formatMoney(bucket.balance, c.currency)}
                        </td>
                        <td className="px-2 py-2 sm:px-3 text-right text-slate-600 tabular-nums">{share(bucket.balance, c.balance)}</td>
                      </tr>
                    );
                  })}
                </tbody>
                <tfoot className="border-t border-slate-300 font-medium">
                  <tr>
                    <th scope="row" className="px-2 py-2 sm:px-3 text-left">
                      {t('summary.total')}
                    </th>
                    <td className="px-2 py-2 sm:px-3 text-right tabular-nums">{c.cards.toLocaleString('en')}</td>
                    <td className="whitespace-nowrap px-2 py-2 sm:px-3 text-right tabular-nums">{formatMoney(c.balance, c.currency)}</td>
                    <td className="px-2 py-2 sm:px-3 text-right tabular-nums">{c.balance ? '100%' : '0%'}</td>
                  </tr>
                </tfoot>
              </table>
            </div>
          </section>
        );
      })}
    </div>
  );
}
