import { formatMoney } from '@/components/ui/money';
import type { HistoryTotals } from '@/lib/dashboard/history-totals';

const count = new Intl.NumberFormat('en');

/**
 * The count and the amount, fee and net sums of everything the filters match,
 * one line per currency (sums in different currencies are never added), and
 * what net means on this list.
 */
export function ListTotals({ totals, noun, hint }: { totals: HistoryTotals; noun: string; hint: string }) {
  const several = totals.currencies.length > 1;
  const nouns = (n: number) => `${count.format(n)} ${n === 1 ? noun : `${noun}s`}`;
  return (
    <section aria-label="Totals" className="mb-4 rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200" data-testid="list-totals">
      {several && (
        <p className="text-sm font-semibold text-slate-900" data-testid="totals-count">
          {nouns(totals.count)}
        </p>
      )}
      <ul className="space-y-1">
        {totals.currencies.map((c) => (
          <li key={c.currency} className="flex flex-wrap gap-x-2 text-sm tabular-nums text-slate-800" data-testid={`totals-${c.currency}`}>
            <span className="font-semibold text-slate-900" data-testid={several ? undefined : 'totals-count'}>
              {nouns(c.count)}
              {several && ` in ${c.currency}`}
            </span>
            <span aria-hidden="true">·</span>
            <span data-testid="totals-amount">{formatMoney(c.amount, c.currency)} amount</span>
            <span aria-hidden="true">·</span>
            <span data-testid="totals-fee">{formatMoney(c.fee, c.currency)} fees</span>
            <span aria-hidden="true">·</span>
            <span data-testid="totals-net">{formatMoney(c.net, c.currency)} net</span>
          </li>
        ))}
      </ul>
      {/* Folded on a phone, like the filters: four lines of it pushed the list off the first screen. */}
      <details className="mt-2 text-xs text-slate-600 md:[&::details-content]:[content-visibility:visible] md:[&>summary]:hidden">
        <summary className="cursor-pointer font-medium text-slate-700">What these figures count</summary>
        <p className="mt-1 md:mt-0">{hint}</p>
      </details>
    </section>
  );
}
