import type { DbOrTx } from '../../db/client';
import { csvLine, unitsText } from '../../dashboard/csv';
import { FIGURES, type Figures, type ReconciliationOptions, type ReconciliationProblem } from './definitions';
import { reconciliationReport } from './report';

const kindWords = (kind: string | null) => (kind ? kind.replaceAll('_', ' ') : 'no ledger transaction');

const problemText = (p: ReconciliationProblem) =>
  `transaction ${p.transactionId ?? 'none'} (${kindWords(p.ledgerKind)}${p.reference ? `, ${p.reference}` : ''}) off by ${unitsText(p.offBy)}: ${p.detail}`;

/**
 * The report as CSV: a line per day and currency, then a total line per
 * currency. Every figure in currency units and in minor units; the day is the
 * business's, named by its zone; a day that does not reconcile lists the
 * transactions that break it.
 */
export async function reconciliationCsvFile(db: DbOrTx, opts: ReconciliationOptions) {
  const report = await reconciliationReport(db, opts);
  const header = csvLine([
    'line',
    `day (${opts.timeZone})`,
    'currency',
    'reconciles',
    'transactions',
    ...FIGURES.map((f) => f.csv),
    ...FIGURES.map((f) => `${f.csv}_minor`),
    'problems',
  ]);
  const line = (kind: 'day' | 'total', day: string, currency: string, reconciles: boolean, transactions: number, figures: Figures, problems: string) =>
    csvLine([
      kind,
      day,
      currency,
      reconciles ? 'yes' : 'no',
      transactions,
      ...FIGURES.map((f) => unitsText(figures[f.key])),
      ...FIGURES.map((f) => figures[f.key]),
      problems,
    ]);
  return {
    header,
    chunks: (async function* () {
      yield report.days.map((d) => line('day', d.day, d.currency, d.reconciles, d.transactions, d.figures, d.problems.map(problemText).join(' | '))).join('');
      yield report.totals
        .map((t) =>
          line('total', `${opts.from} to ${opts.to}`, t.currency, t.reconciles, t.transactions, t.figures, report.truncated ? 'more problems than listed' : ''),
        )
        .join('');
    })(),
  };
}
