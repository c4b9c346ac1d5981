import type { DbOrTx } from '../../db/client';
import { csvLine, unitsText } from '../../csv';
import { FIGURES, type Figures, type ReconciliationOptions, type ReconciliationProblem } from './definitions';
import type { ChapaConfig } from '../../rails/chapa/config';
import { LISTING_NAMES, providerReconciliation, type ProviderReconciliation } from '../provider-reconciliation';
import { reconciliationReport } from './report';

export type ReconciliationCsvOptions = ReconciliationOptions & {
  /** Live Chapa's settings: when given (live mode), each day also carries Chapa's side, as on the page. */
  chapa: ChapaConfig | null;
};

type ProviderDay = ProviderReconciliation['days'][number];

const PROVIDER_HEADER = [
  'chapa_payments',
  'chapa_received_ledger',
  'chapa_received_chapa',
  'chapa_transfers',
  'chapa_paid_out_ledger',
  'chapa_paid_out_chapa',
  'chapa_received_ledger_minor',
  'chapa_received_chapa_minor',
  'chapa_paid_out_ledger_minor',
  'chapa_paid_out_chapa_minor',
  'chapa_differences',
];

/** Chapa's side of one day; a listing that could not be read leaves its figures empty and says so. */
function providerCells(p: ProviderDay | undefined, unread: ProviderReconciliation['unread']): (string | number)[] {
  if (!p) return PROVIDER_HEADER.map(() => '');
  const units = (minor: number | null) => (minor === null ? 'not read' : unitsText(minor));
  const minor = (value: number | null) => value ?? '';
  const notes = [
    ...unread.map((u) => `${LISTING_NAMES[u.listing]} could not be read (${u.reason}): not compared`),
    ...p.differences.map((d) => `${d.reference}: ${d.detail}`),
  ];
  return [
    p.payments,
    unitsText(p.oursReceived),
    units(p.chapaReceived),
    p.transfers,
    unitsText(p.oursSettled),
    units(p.chapaSettled),
    p.oursReceived,
    minor(p.chapaReceived),
    p.oursSettled,
    minor(p.chapaSettled),
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
 * transactions that break it.
 */
export async function reconciliationCsvFile(db: DbOrTx, { chapa, ...opts }: ReconciliationCsvOptions) {
  const [report, provider] = await Promise.all([reconciliationReport(db, opts), providerReconciliation(db, chapa, opts)]);
  const providerDays = new Map((provider?.days ?? []).map((p) => [`${p.day} ${p.currency}`, p]));
  const withProvider = (day: string, currency: string) => (provider ? providerCells(providerDays.get(`${day} ${currency}`), provider.unread) : []);
  const header = csvLine([
    'line',
    `day (${opts.timeZone})`,
    'currency',
    'reconciles',
    'transactions',
    ...FIGURES.map((f) => f.csv),
    ...FIGURES.map((f) => `${f.csv}_minor`),
    'problems',
    ...(provider ? PROVIDER_HEADER : []),
  ]);
  const line = (
    kind: 'day' | 'total',
    day: string,
    currency: string,
    reconciles: boolean,
    transactions: number,
    figures: Figures,
    problems: string,
    chapaCells: (string | number)[],
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
      ...chapaCells,
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
            provider ? PROVIDER_HEADER.map(() => '') : [],
          ),
        )
        .join('');
    })(),
  };
}
