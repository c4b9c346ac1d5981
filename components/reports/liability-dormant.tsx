import { useLocale, useTranslations } from 'next-intl';
import Link from 'next/link';
import { formatMoney as formatMoneyIn } from '@/components/ui/money';
import { EmptyState } from '@/components/ui/page-header';
import { TableHead } from '@/components/ui/table-head';
import { Pager } from '@/components/ui/pager';
import type { DormantCardsPage } from '@/lib/reports/liability/definitions';

const linkClass = 'font-mono text-emerald-800 underline underline-offset-2 hover:text-emerald-950 focus-visible:outline-2 focus-visible:outline-emerald-700';

/**
 * Cards with money on them and no movement for longer than the window, by
 * currency and largest balance first; the holder's name is the one this
 * business gave.
 */
export function LiabilityDormant({
  page,
  dormantDays,
  dayLabel,
  formatDay,
  pageHref,
}: {
  page: DormantCardsPage;
  dormantDays: number;
  dayLabel: string;
  formatDay: (at: Date) => string;
  pageHref: (cursor: { after?: string; before?: string }) => string;
}) {
  const t = useTranslations('ReportsLiabilityPanels');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const formatMoney = (minor: number, currency: string) => formatMoneyIn(minor, currency, locale);
  if (page.items.length === 0) {
    return <EmptyState title={t('dormant.emptyTitle', { day: dayLabel })}>{t('dormant.emptyText', { days: dormantDays })}</EmptyState>;
  }
  return (
    <>
      <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <table className="w-full text-sm" data-testid="dormant-table">
          <caption className="sr-only">{t('dormant.caption')}</caption>
          <TableHead
            variant="stacking"
            columns={[
              t('dormant.card'),
              t('dormant.holder'),
              { label: t('dormant.balance'), numeric: true },
              t('dormant.lastActivity'),
              { label: t('dormant.daysIdle'), numeric: true },
            ]}
          />
          <tbody className="divide-y divide-slate-100">
            {page.items.map((c) => (
              <tr key={c.id} className="grid grid-cols-2 gap-x-3 gap-y-1 px-4 py-3 md:table-row md:p-0" data-testid={`dormant-${c.cardNumber}`}>
                <td className="text-xs md:px-4 md:py-3">
                  <Link href={`/cards/${c.cardNumber}`} className={linkClass}>
                    {c.cardNumber}
                  </Link>
                </td>
                <td className="text-right font-medium tabular-nums md:hidden">{formatMoney(c.balance, c.currency)}</td>
                <td className="col-span-2 md:col-span-1 md:px-4 md:py-3" data-testid="holder">
                  {c.holderName || <span className="text-slate-600">{t('dormant.noName')}</span>}
                </td>
                <td className="hidden text-right font-medium tabular-nums md:table-cell md:px-4 md:py-3" data-testid="balance">
                  {formatMoney(c.balance, c.currency)}
                </td>
                <td className="text-xs text-slate-700 md:px-4 md:py-3 md:text-sm">
                  <span className="md:sr-only">{t('dormant.lastMoved')}</span>
                  {formatDay(c.lastActivityAt)}
                </td>
                <td className="text-right text-xs text-slate-700 tabular-nums md:px-4 md:py-3 md:text-sm">
                  {c.daysSinceActivity.toLocaleString('en')}
                  <span className="md:sr-only">{t('dormant.idle')}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager
        label={t('dormant.pages')}
        prev={page.prev ? { href: pageHref({ before: page.prev }), label: t('dormant.larger') } : null}
        next={page.next ? { href: pageHref({ after: page.next }), label: t('dormant.smaller') } : null}
      />
    </>
  );
}
