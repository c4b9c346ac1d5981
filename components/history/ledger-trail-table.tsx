import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { EmptyState } from '@/components/ui/page-header';
import type { LedgerTrailEntry } from '@/lib/dashboard/ledger-trail';
import { TableScroll } from './table-scroll';
import { TableHead } from '@/components/ui/table-head';

/** Every ledger entry written under a reference: which account moved by how much, and its balance after. */
export function LedgerTrailTable({ entries }: { entries: LedgerTrailEntry[] }) {
  if (entries.length === 0) return <EmptyState title="No money has moved for this yet" />;
  return (
    <TableScroll label="Ledger transactions">
      <table className="w-full min-w-[640px] text-sm" data-testid="ledger-trail">
        <TableHead
          variant="scrolling"
          columns={['Transaction', 'Account', { label: 'Amount', numeric: true }, { label: 'Balance after', numeric: true }, 'When · by']}
        />
        <tbody>
          {entries.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a transaction's entries have no id of their own; their order within it is fixed
            <tr key={`${e.transactionId}-${i}`} className="border-t border-slate-100">
              <td className="px-3 py-2 text-xs">
                #{e.transactionId} · {e.kind.replaceAll('_', ' ')}
              </td>
              <td className="px-3 py-2 text-xs">{e.account}</td>
              <td className={`px-3 py-2 text-right tabular-nums ${e.amount < 0 ? 'text-red-800' : 'text-emerald-800'}`}>
                {e.amount > 0 ? '+' : ''}
                {formatMoney(e.amount, e.currency)}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{e.balanceAfter === null ? '—' : formatMoney(e.balanceAfter, e.currency)}</td>
              <td className="px-3 py-2 text-xs text-slate-700">
                <LocalTime iso={e.createdAt} /> · {e.actor}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
