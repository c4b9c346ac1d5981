import type { DbOrTx } from '../../db/client';
import { csvLine } from '../../csv';
import { unitsText } from '../../money-text';
import { FIGURES, type Figures, type ReconciliationOptions, type ReconciliationProblem } from './definitions';
import { listingName, providerReconciliation, type ProviderReconciliation, type ReconciledProvider } from '../provider-reconciliation';
import { reconciliationReport } from './report';

export type ReconciliationCsvOptions = ReconciliationOptions & {
  /** The mode's provider: one that keeps listings of its own (Chapa, live) adds its side to each day, as on the page. */
  provider: ReconciledProvider | undefined;
};

type ProviderDay = ProviderReconciliation['days'][number];

/** The provider's columns, named after it (chapa_received_chapa: what Chapa says was received). */
const providerHeader = (name: string) =>
  [
    'payments',
    'received_ledger',
    `received_${name}`,
    'transfers',
    'paid_out_ledger',
    `paid_out_${name}`,
    'received_ledger_minor',
    `received_${name}_minor`,
    'paid_out_ledger_minor',
    `paid_out_${name}_minor`,
    'differences',
  ].map((c) => `${name}_${c}`);

const PROVIDER_COLUMNS = providerHeader('').length;

/** The provider's side of one day; a listing that could not be read leaves its figures empty and says so. */
function providerCells(p: ProviderDay | undefined, report: ProviderReconciliation): (string | number)[] {
  if (!p) return Array.from({ length: PROVIDER_COLUMNS }, () => '');
  const units = (minor: number | null) => (minor === null ? 'not read' : unitsText(minor));
  const minor = (value: number | null) => value ?? '';
  const notes = [
    ...report.unread.map((u) => `${listingName(u.listing, report.provider)} could not be read (${u.reason}): not compared`),
    ...p.differences.map((d) => `${d.reference}: ${d.detail}`),
  ];
  return [
    p.payments,
    unitsText(p.oursReceived),
    units(p.theirsReceived),
    p.transfers,
    unitsText(p.oursSettled),
    units(p.theirsSettled),
    p.oursReceived,
    minor(p.theirsReceived),
    p.oursSettled,
    minor(p.theirsSettled),
    notes.join(' | '),
  ];
}

const kindWords = (kind: string | null) => (kind ? kind.replaceAll('_', ' ') : 'no ledger transaction');

const problemText = (p: ReconciliationProblem) =>
  `transaction ${p.transactionId ?? 'none'} (${kindWords(p.ledgerKind)}${p.reference ? `, ${p.reference}` : ''}) off by ${unitsText(p.offBy)}: ${p.detail}`;

/**
 * The report as CSV: a line per day and currency, then a total line per
 * currency. Every figure in currency units and in minor units; the day is the
 * business's, named by its zone; a day that does not reconcile lists the
 * transactions that break it. A branch's file (its spends alone) names the branch in a last column.
 */
export async function reconciliationCsvFile(db: DbOrTx, { provider: of, ...opts }: ReconciliationCsvOptions) {
  // The provider's side is payments and transfers, never at a branch: a branch's file leaves it out.
  const [report, provider] = await Promise.all([
    reconciliationReport(db, opts),
    providerReconciliation(db, opts.location === undefined ? of : undefined, opts),
  ]);
  const providerDays = new Map((provider?.days ?? []).map((p) => [`${p.day} ${p.currency}`, p]));
  const withProvider = (day: string, currency: string) => (provider ? providerCells(providerDays.get(`${day} ${currency}`), provider) : []);
  // A branch's file says which branch on every line, so a line read alone is not taken for the whole business.
  const branch = report.branch === undefined ? [] : [report.branch === 'none' ? 'no branch' : report.branch.name];
  const header = csvLine([
    'line',
    `day (${opts.timeZone})`,
    'currency',
    'reconciles',
    'transactions',
    ...FIGURES.map((f) => f.csv),
    ...FIGURES.map((f) => `${f.csv}_minor`),
    'problems',
    ...(provider ? providerHeader(provider.column) : []),
    ...(branch.length ? ['branch'] : []),
  ]);
  const line = (
    kind: 'day' | 'total',
    day: string,
    currency: string,
    reconciles: boolean,
    transactions: number,
    figures: Figures,
    problems: string,
    providerColumns: (string | number)[],
  ) =>
    csvLine([
      kind,
      day,
      currency,
      reconciles ? 'yes' : 'no',
      transactions,
      ...FIGURES.map((f) => unitsText(figures[f.key])),
      ...FIGURES.map((f) => figures[f.key]),
      problems,
      ...providerColumns,
      ...branch,
    ]);
  return {
    header,
    chunks: (async function* () {
      yield report.days
        .map((d) =>
          line('day', d.day, d.currency, d.reconciles, d.transactions, d.figures, d.problems.map(problemText).join(' | '), withProvider(d.day, d.currency)),
        )
        .join('');
      yield report.totals
        .map((t) =>
          line(
            'total',
            `${opts.from} to ${opts.to}`,
            t.currency,
            t.reconciles,
            t.transactions,
            t.figures,
            report.truncated ? 'more problems than listed' : '',
            provider ? providerCells(undefined, provider) : [],
          ),
        )
        .join('');
    })(),
  };
}
