import { formatMoney } from '@/components/ui/money';
import { Stat } from '@/components/ui/stat';
import type { StatementSummary } from '@/lib/reports/business-statement';
import { STATEMENT_KIND_LABELS } from '@/lib/reports/statement-kinds';

/** Opening balance, money in, money out and closing balance of the range, with the sum that ties them. */
export function StatementSummaryPanel({ summary, fromLabel, toLabel }: { summary: StatementSummary; fromLabel: string; toLabel: string }) {
  const c = summary.currency;
  const items = [
    { key: 'opening', label: 'Opening balance', note: `At the start of ${fromLabel}`, value: summary.opening },
    { key: 'in', label: 'Money in', note: summary.kind ? STATEMENT_KIND_LABELS[summary.kind] : 'Every movement into the account', value: summary.moneyIn },
    { key: 'out', label: 'Money out', note: summary.kind ? STATEMENT_KIND_LABELS[summary.kind] : 'Every movement out of it', value: summary.moneyOut },
    { key: 'closing', label: 'Closing balance', note: `At the end of ${toLabel}`, value: summary.closing },
  ];
  return (
    <section aria-labelledby="statement-summary-title" className="mb-6 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id="statement-summary-title" className="text-base font-semibold text-slate-900">
        {c} business account, {fromLabel} to {toLabel}
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-4 lg:grid-cols-4" data-testid="statement-summary">
        {items.map((i) => (
          <Stat key={i.key} label={i.label} detail={i.note} testId={`summary-${i.key}`}>
            {formatMoney(i.value, c)}
          </Stat>
        ))}
      </dl>
      <p className="mt-4 text-sm text-slate-700">
        {summary.kind
          ? `Money in and out count ${STATEMENT_KIND_LABELS[summary.kind].toLowerCase()} only (${summary.lines.toLocaleString('en')} lines); the opening and closing balances are the whole account’s.`
          : `Opening balance + money in − money out = closing balance, over ${summary.lines.toLocaleString('en')} ${summary.lines === 1 ? 'movement' : 'movements'}.`}{' '}
        The account holds {formatMoney(summary.balanceNow, c)} now.
      </p>
    </section>
  );
}
