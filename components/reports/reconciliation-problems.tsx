import Link from 'next/link';
import { TableHead } from '@/components/ui/table-head';
import type { ProblemKind, ReconciliationDay } from '@/lib/reports/reconciliation/definitions';
import { groupedUnitsText } from '@/lib/money-text';
import { dayLabel, problemsAnchor } from './reconciliation-table';

const PROBLEM_LABELS: Record<ProblemKind, string> = {
  unbalanced: 'Does not balance',
  balance_chain: 'Balance chain broken',
  rows_differ: 'Ledger and row differ',
  no_row: 'No payout or payment row',
  no_ledger: 'No ledger transaction',
};

const linkClass = 'font-mono text-emerald-800 underline underline-offset-2 hover:text-emerald-950 focus-visible:outline-2 focus-visible:outline-emerald-700';

/** The reference of this business's own payout or payment links to it; a business payout received belongs to the payer. */
function referenceHref(kind: string | null, reference: string): string | null {
  if (kind === 'payment') return `/payments/${reference}`;
  if (kind && /^(payout_card_to_card|payout_bank|payout_bank_reversal|transfer|transfer_settlement|transfer_reversal)$/.test(kind))
    return `/payouts/${reference}`;
  return null;
}

/** Each day that does not reconcile, with the transactions that break it and by how much. */
export function ReconciliationProblems({ days, truncated }: { days: ReconciliationDay[]; truncated: boolean }) {
  const broken = days.filter((d) => !d.reconciles);
  if (broken.length === 0) return null;
  return (
    <section aria-labelledby="recon-problems" className="mb-8">
      <h2 id="recon-problems" className="mb-1 text-lg font-semibold text-red-800">
        Days that do not reconcile
      </h2>
      <p className="mb-3 text-sm text-slate-700">
        Each line is a ledger transaction (or a payout or payment row) that breaks its day. “Off by” is what the ledger is off by, in the day’s currency.
        {truncated && ' More problems were found than are listed here; the first 500 of each kind are shown.'}
      </p>
      {broken.map((d) => (
        <div key={`${d.day}-${d.currency}`} id={problemsAnchor(d)} className="mb-4 scroll-mt-4 rounded-xl bg-white shadow-sm ring-2 ring-red-300">
          <h3 className="rounded-t-xl bg-red-50 px-4 py-2 font-semibold text-red-900">
            <span aria-hidden="true">✗ </span>
            {dayLabel(d.day)}, {d.currency}: does not reconcile ({d.problemCount} {d.problemCount === 1 ? 'problem' : 'problems'})
          </h3>
          <table className="w-full text-sm" data-testid={`recon-problems-${d.day}-${d.currency}`}>
            <caption className="sr-only">
              Transactions that break {d.day} in {d.currency}
            </caption>
            <TableHead variant="stacking" columns={['Transaction', 'Problem', 'Kind', 'Reference', { label: 'Off by', numeric: true }, 'What is wrong']} />
            <tbody className="divide-y divide-slate-100">
              {d.problems.map((p, i) => {
                const href = p.reference ? referenceHref(p.ledgerKind, p.reference) : null;
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: one transaction can break a day in more than one way; the position tells them apart.
                  <tr key={i} className="grid grid-cols-2 gap-x-3 gap-y-1 px-4 py-3 md:table-row md:p-0" data-testid="recon-problem">
                    <td className="font-mono md:px-4 md:py-2" data-testid="transaction-id">
                      <span className="font-sans text-slate-600 md:sr-only">Transaction </span>
                      {p.transactionId ?? '—'}
                    </td>
                    <td className="font-medium text-red-800 md:px-4 md:py-2">{PROBLEM_LABELS[p.problem]}</td>
                    <td className="md:px-4 md:py-2">{p.ledgerKind ? p.ledgerKind.replaceAll('_', ' ') : '—'}</td>
                    <td className="break-all text-xs md:px-4 md:py-2">
                      {p.reference && href ? (
                        <Link href={href} className={linkClass}>
                          {p.reference}
                        </Link>
                      ) : (
                        <span className="font-mono">{p.reference ?? '—'}</span>
                      )}
                    </td>
                    <td className="text-right font-semibold tabular-nums md:px-4 md:py-2" data-testid="off-by">
                      <span className="font-normal text-slate-600 md:sr-only">Off by </span>
                      {groupedUnitsText(p.offBy)}
                    </td>
                    <td className="col-span-2 text-xs text-slate-700 md:px-4 md:py-2 md:text-sm">{p.detail}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
