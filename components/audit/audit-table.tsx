import { LocalTime } from '@/components/ui/local-time';
import type { AuditEntry } from '@/lib/dashboard/list-audit-log';
import { TableHead } from '@/components/ui/table-head';

const ACTOR_TYPE: Record<string, string> = { user: 'Dashboard', api_key: 'API', admin: 'Back office', system: 'System' };

/** A table on wide screens, stacked blocks at phone width. */
export function AuditTable({ items }: { items: AuditEntry[] }) {
  return (
    <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      <table className="w-full text-sm" data-testid="audit-table">
        <TableHead variant="stacking" columns={['Time', 'Who', 'Action', 'Target']} />
        <tbody className="divide-y divide-slate-100">
          {items.map((e) => (
            <tr key={e.id} className="grid grid-cols-1 gap-1 px-4 py-3 md:table-row md:p-0" data-testid="audit-row">
              <td className="text-xs text-slate-600 md:px-4 md:py-3 md:text-sm md:whitespace-nowrap">
                <LocalTime iso={e.createdAt} />
              </td>
              <td className="min-w-0 md:px-4 md:py-3">
                <span className="break-all font-medium text-slate-900">{e.actorLabel}</span>{' '}
                <span className="text-xs text-slate-600">({ACTOR_TYPE[e.actorType] ?? e.actorType})</span>
              </td>
              <td className="font-mono text-xs text-slate-800 md:px-4 md:py-3">{e.action}</td>
              <td className="break-all font-mono text-xs text-slate-700 md:px-4 md:py-3">{e.target ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
