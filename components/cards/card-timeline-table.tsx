import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { MOVEMENT_LABELS, type TimelineEntry } from '@/lib/dashboard/card-timeline';

/** Every movement with the balance it left; stacked at phone width. */
export function CardTimelineTable({ entries, currency }: { entries: TimelineEntry[]; currency: string }) {
  return (
    <table className="w-full text-sm" data-testid="card-timeline">
      <thead className="hidden text-left text-slate-700 md:table-header-group">
        <tr>
          <th scope="col" className="py-2 pr-3 font-medium">
            When
          </th>
          <th scope="col" className="py-2 pr-3 font-medium">
            Movement
          </th>
          <th scope="col" className="py-2 pr-3 font-medium">
            Reference
          </th>
          <th scope="col" className="py-2 pr-3 text-right font-medium">
            Amount
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            Balance after
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {entries.map((e) => (
          <tr key={e.id} className="grid grid-cols-2 gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="timeline-entry">
            <td className="col-span-2 text-xs text-slate-600 md:py-2 md:pr-3 md:text-sm">
              <LocalTime iso={e.createdAt} />
            </td>
            <td className="font-medium md:py-2 md:pr-3">{MOVEMENT_LABELS[e.kind] ?? e.kind.replaceAll('_', ' ')}</td>
            <td className="break-all text-right font-mono text-xs text-slate-700 md:py-2 md:pr-3 md:text-left">{e.reference ?? '—'}</td>
            <td className={`tabular-nums md:py-2 md:pr-3 md:text-right ${e.amount > 0 ? 'text-emerald-800' : 'text-red-800'}`}>
              {e.amount > 0 ? '+' : '−'}
              {formatMoney(Math.abs(e.amount), currency)}
            </td>
            <td className="text-right tabular-nums md:py-2">
              <span className="text-xs text-slate-600 md:hidden">Balance </span>
              {formatMoney(e.balanceAfter, currency)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
