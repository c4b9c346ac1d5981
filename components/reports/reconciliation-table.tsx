import { useTranslations } from 'next-intl';
import { groupedUnitsText } from '@/lib/money-text';
import { BRANCH_FIGURES, FIGURES, type FigureKey, type Figures, type ReconciliationDay } from '@/lib/reports/reconciliation/definitions';

const groupsOf = (shown: readonly (typeof FIGURES)[number][]) =>
  (['in', 'out', 'reversals', 'fees', 'ledger'] as const)
    .map((g) => ({ group: g, figures: shown.filter((f) => f.group === g) }))
    .filter((g) => g.figures.length > 0 || g.group === 'ledger');
const WHOLE = groupsOf(FIGURES.filter((f) => f.onPage));
/** A branch's table: its spends, counted, and what they moved (the other figures do not happen at a branch). */
const BRANCH = groupsOf(FIGURES.filter((f) => BRANCH_FIGURES.includes(f.key)));

function Amount({ minor }: { minor: number }) {
  return <span className={minor === 0 ? 'text-slate-600' : 'text-slate-900'}>{groupedUnitsText(minor)}</span>;
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });
export const dayLabel = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
export const problemsAnchor = (d: { day: string; currency: string }) => `problems-${d.day}-${d.currency}`;

function Status({ day }: { day: ReconciliationDay }) {
  const t = useTranslations('Reports.reconciliation');
  if (day.reconciles) {
    return (
      <span className="inline-flex items-center gap-1 font-medium text-emerald-800">
        <span aria-hidden="true">✓</span> {t('reconciles')}
      </span>
    );
  }
  return (
    <a
      href={`#${problemsAnchor(day)}`}
      className="inline-flex items-center gap-1 font-semibold text-red-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-emerald-700"
    >
      <span aria-hidden="true">✗</span> {t('doesNotReconcile', { count: day.problemCount })}
    </a>
  );
}

const cell = 'px-3 py-2 text-right tabular-nums whitespace-nowrap';

/**
 * One currency's days, one row each, with the range's totals last. Wide by
 * nature: it scrolls sideways inside its own frame, the day and its status
 * staying in view; a day that does not reconcile is tinted red and says so.
 */
export function ReconciliationTable({
  currency,
  days,
  totals,
  dayText = dayLabel,
  branch = false,
}: {
  currency: string;
  days: ReconciliationDay[];
  totals: { figures: Figures; transactions: number; reconciles: boolean };
  /** A day as the reader writes it; English Gregorian by default ("Mon 7 Dec"). */
  dayText?: (day: string) => string;
  /** A branch's report: only the spends' figures and their count; no check against the payouts and payments tables. */
  branch?: boolean;
}) {
  const t = useTranslations('Reports.reconciliation');
  const groups = branch ? BRANCH : WHOLE;
  const spends = (n: number) =>
    branch ? (
      <td className={`${cell} border-l border-slate-100`} data-testid="spends">
        {n}
      </td>
    ) : null;
  const trial = (f: Figures) => f.credits - f.debits;
  const rowsAgree = (d: ReconciliationDay) => d.checks.every((c) => c.ledger === c.rows && c.ledgerFee === c.rowsFee);
  return (
    <section aria-labelledby={`recon-${currency}`} className="mb-8">
      <h2 id={`recon-${currency}`} className="mb-2 text-lg font-semibold text-slate-900">
        {currency}
      </h2>
      <section
        className="overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200 focus-visible:outline-3 focus-visible:outline-emerald-700"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways must take focus, so a keyboard can scroll it.
        tabIndex={0}
        aria-label={t('tableLabel', { currency })}
      >
        <table className="min-w-full text-sm" data-testid={`recon-table-${currency}`}>
          <caption className="sr-only">{t('caption', { currency })}</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" rowSpan={2} className="sticky left-0 bg-slate-50 px-3 py-2 text-left font-medium">
                {t('day')}
              </th>
              <th scope="col" rowSpan={2} className="px-3 py-2 text-left font-medium">
                {t('status')}
              </th>
              {branch && (
                <th scope="col" rowSpan={2} className="whitespace-nowrap border-l border-slate-200 px-3 py-2 text-right font-medium">
                  {t('spends')}
                </th>
              )}
              {groups.map((g) => (
                <th
                  key={g.group}
                  scope="colgroup"
                  colSpan={g.figures.length + (g.group === 'ledger' ? (branch ? 1 : 2) : 0)}
                  className="border-l border-slate-200 px-3 py-1 text-center font-semibold"
                >
                  {t(`groups.${g.group}`)}
                </th>
              ))}
            </tr>
            <tr>
              {groups.flatMap((g) =>
                g.figures.map((f, i) => (
                  <th key={f.key} scope="col" className={`whitespace-nowrap px-3 py-2 text-right font-medium ${i === 0 ? 'border-l border-slate-200' : ''}`}>
                    {t(`figures.${f.key}`)}
                  </th>
                )),
              )}
              <th scope="col" className="whitespace-nowrap px-3 py-2 text-right font-medium">
                {t('trialBalance')}
              </th>
              {!branch && (
                <th scope="col" className="whitespace-nowrap px-3 py-2 text-left font-medium">
                  {t('rowsAgree')}
                </th>
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {days.map((d) => (
              <tr key={d.day} className={d.reconciles ? '' : 'bg-red-50'} data-testid={`recon-day-${d.day}-${d.currency}`} data-reconciles={d.reconciles}>
                <th scope="row" className={`sticky left-0 whitespace-nowrap px-3 py-2 text-left font-medium ${d.reconciles ? 'bg-white' : 'bg-red-50'}`}>
                  <time dateTime={d.day}>{dayText(d.day)}</time>
                </th>
                <td className="whitespace-nowrap px-3 py-2" data-testid="status">
                  <Status day={d} />
                </td>
                {spends(d.transactions)}
                {groups.flatMap((g) =>
                  g.figures.map((f, i) => (
                    <td key={f.key} className={`${cell} ${i === 0 ? 'border-l border-slate-100' : ''}`} data-testid={`fig-${f.key}`}>
                      <Amount minor={d.figures[f.key as FigureKey]} />
                    </td>
                  )),
                )}
                <td className={cell}>
                  {trial(d.figures) === 0 ? (
                    <span className="text-emerald-800">0.00</span>
                  ) : (
                    <span className="font-semibold text-red-800">{t('off', { amount: groupedUnitsText(trial(d.figures)) })}</span>
                  )}
                </td>
                {!branch && (
                  <td className="whitespace-nowrap px-3 py-2">{rowsAgree(d) ? t('yes') : <span className="font-semibold text-red-800">{t('no')}</span>}</td>
                )}
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-semibold">
            <tr data-testid={`recon-total-${currency}`}>
              <th scope="row" className="sticky left-0 bg-slate-50 px-3 py-2 text-left">
                {t('total')}
              </th>
              <td className="whitespace-nowrap px-3 py-2">
                {totals.reconciles ? t('totalReconciles') : <span className="text-red-800">{t('totalBroken')}</span>}
              </td>
              {spends(totals.transactions)}
              {groups.flatMap((g) =>
                g.figures.map((f, i) => (
                  <td key={f.key} className={`${cell} ${i === 0 ? 'border-l border-slate-100' : ''}`} data-testid={`fig-${f.key}`}>
                    {groupedUnitsText(totals.figures[f.key as FigureKey])}
                  </td>
                )),
              )}
              <td className={cell}>{groupedUnitsText(trial(totals.figures))}</td>
              {!branch && <td className="px-3 py-2" />}
            </tr>
          </tfoot>
        </table>
      </section>
    </section>
  );
}
