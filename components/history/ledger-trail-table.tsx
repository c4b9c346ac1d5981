import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { EmptyState } from '@/components/ui/page-header';
import type { LedgerTrailEntry } from '@/lib/dashboard/ledger-trail';
import { TableHead } from '@/components/ui/table-head';

const KIND_WORDS: Record<string, string> = {
  payout_card_to_card: 'Card-to-card payout',
  payout_b2b: 'Payout to another business',
  payout_bank: 'Money set aside for the bank',
  payout_bank_reversal: 'Payout returned',
  transfer: 'Top-up from business balance',
  transfer_settlement: 'Top-up delivered',
  transfer_reversal: 'Top-up returned',
  payment: 'Payment received',
  payment_refund: 'Payment refunded',
  payment_refund_reversal: 'Refund returned',
  card_cancellation: 'Card cancelled',
  business_deposit: 'Business balance credited',
};

/** A ledger transaction's kind in words; an unknown one is only "Money moved", never its code. */
const ledgerKindWords = (kind: string) => KIND_WORDS[kind] ?? 'Money moved';

/** Every ledger entry written under a reference: which account moved by how much, and its balance after. */
export function LedgerTrailTable({ entries }: { entries: LedgerTrailEntry[] }) {
  if (entries.length === 0) return <EmptyState title="No money has moved for this yet" />;
  return (
    <div className="overflow-hidden rounded-xl bg-white ring-1 ring-slate-200">
      <table className="w-full text-sm" data-testid="ledger-trail">
        <caption className="sr-only">Ledger transactions</caption>
        <TableHead
          variant="stacking"
          columns={['Transaction', 'Account', { label: 'Amount', numeric: true }, { label: 'Balance after', numeric: true }, 'When · by']}
        />
        <tbody className="divide-y divide-slate-100">
          {entries.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a transaction's entries have no id of their own; their order within it is fixed
            <tr key={`${e.transactionId}-${i}`} className="grid grid-cols-2 gap-x-3 gap-y-1 px-4 py-3 md:table-row md:p-0">
              <td className="order-1 text-xs md:px-3 md:py-2">
                #{e.transactionId} · {ledgerKindWords(e.kind)}
              </td>
              <td className="order-3 col-span-2 text-xs md:col-span-1 md:px-3 md:py-2">{e.account}</td>
              <td className={`order-2 text-right tabular-nums md:px-3 md:py-2 ${e.amount < 0 ? 'text-red-800' : 'text-emerald-800'}`}>
                {e.amount > 0 ? '+' : ''}
                {formatMoney(e.amount, e.currency)}
              </td>
              <td className="order-4 text-xs text-slate-700 tabular-nums md:px-3 md:py-2 md:text-right md:text-sm md:text-slate-900">
                <span className="md:sr-only">Balance after </span>
                {e.balanceAfter === null ? '—' : formatMoney(e.balanceAfter, e.currency)}
              </td>
              <td className="order-5 text-right text-xs text-slate-700 md:px-3 md:py-2 md:text-left">
                <LocalTime iso={e.createdAt} /> · {e.actor}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <TimeZoneNote className="mt-2" />
    </div>
  );
}
