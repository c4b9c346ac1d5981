import { useLocale, useTranslations } from 'next-intl';
import { formatMoney } from '@/components/ui/money';
import { Stat } from '@/components/ui/stat';
import type { StatementSummary } from '@/lib/reports/business-statement';

/** Opening balance, money in, money out and closing balance of the range, with the sum that ties them. */
export function StatementSummaryPanel({ summary, fromLabel, toLabel }: { summary: StatementSummary; fromLabel: string; toLabel: string }) {
  const t = useTranslations('Statement');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const c = summary.currency;
  const money = (minor: number) => formatMoney(minor, c, locale);
  const kindLabel = summary.kind ? t(`kinds.${summary.kind}`) : undefined;
  const items = [
    { key: 'opening', label: t('opening'), note: t('openingNote', { day: fromLabel }), value: summary.opening },
    { key: 'in', label: t('moneyIn'), note: kindLabel ?? t('moneyInNote'), value: summary.moneyIn },
    { key: 'out', label: t('moneyOut'), note: kindLabel ?? t('moneyOutNote'), value: summary.moneyOut },
    { key: 'closing', label: t('closing'), note: t('closingNote', { day: toLabel }), value: summary.closing },
  ];
  return (
    <section aria-labelledby="statement-summary-title" className="mb-6 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id="statement-summary-title" className="text-base font-semibold text-slate-900">
        {t('summaryTitle', { currency: c, from: fromLabel, to: toLabel })}
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-4 lg:grid-cols-4" data-testid="statement-summary">
        {items.map((i) => (
          <Stat key={i.key} label={i.label} detail={i.note} testId={`summary-${i.key}`}>
            {money(i.value)}
          </Stat>
        ))}
      </dl>
      <p className="mt-4 text-sm text-slate-700">
        {kindLabel ? t('sumOfKind', { kind: kindLabel.toLowerCase(), lines: summary.lines }) : t('sumOfAll', { lines: summary.lines })}{' '}
        {t('balanceNow', { amount: money(summary.balanceNow) })}
      </p>
    </section>
  );
}
