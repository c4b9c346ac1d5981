import { useLocale, useTranslations } from 'next-intl';
import { formatMoney } from '@/components/ui/money';
import type { HistoryTotals } from '@/lib/dashboard/history-totals';
import { isLocale } from '@/lib/i18n/locale';

/**
 * The count and the amount, fee and net sums of everything the filters match,
 * one line per currency (sums in different currencies are never added), and
 * what net means on this list.
 */
export function ListTotals({ totals, count, hint }: { totals: HistoryTotals; count: (n: number) => string; hint: string }) {
  const several = totals.currencies.length > 1;
  const t = useTranslations('Payouts');
  const asked = useLocale();
  const money = (minor: number, currency: string) => formatMoney(minor, currency, isLocale(asked) ? asked : 'en');
  return (
    <section aria-label={t('list.totals')} className="mb-4 rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200" data-testid="list-totals">
      {several && (
        <p className="text-sm font-semibold text-slate-900" data-testid="totals-count">
          {count(totals.count)}
        </p>
      )}
      <ul className="space-y-1">
        {totals.currencies.map((c) => (
          <li key={c.currency} className="flex flex-wrap gap-x-2 text-sm tabular-nums text-slate-800" data-testid={`totals-${c.currency}`}>
            <span className="font-semibold text-slate-900" data-testid={several ? undefined : 'totals-count'}>
              {several ? t('list.countIn', { count: count(c.count), currency: c.currency }) : count(c.count)}
            </span>
            <span aria-hidden="true">·</span>
            <span data-testid="totals-amount">{t('list.amountSum', { amount: money(c.amount, c.currency) })}</span>
            <span aria-hidden="true">·</span>
            <span data-testid="totals-fee">{t('list.feeSum', { amount: money(c.fee, c.currency) })}</span>
            <span aria-hidden="true">·</span>
            <span data-testid="totals-net">{t('list.netSum', { amount: money(c.net, c.currency) })}</span>
          </li>
        ))}
      </ul>
      {/* Folded on a phone, like the filters: four lines of it pushed the list off the first screen. */}
      <details className="mt-2 text-xs text-slate-600 md:[&::details-content]:[content-visibility:visible] md:[&>summary]:hidden">
        <summary className="cursor-pointer font-medium text-slate-700">{t('list.whatCounts')}</summary>
        <p className="mt-1 md:mt-0">{hint}</p>
      </details>
    </section>
  );
}
