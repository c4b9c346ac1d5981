import { useTranslations } from 'next-intl';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { LocalTime } from '@/components/ui/local-time';
import type { AuditEntry } from '@/lib/dashboard/list-audit-log';
import type { DateSettings } from '@/lib/i18n/date-text';
import { TableHead } from '@/components/ui/table-head';
import { auditSentence } from './audit-sentence';

const ACTOR_TYPES = new Set(['user', 'api_key', 'admin', 'system']);

/** Who acted, in the reader's words: lib/ writes the label in English, so only a person's email or a key's prefix is kept from it. */
function useActorName() {
  const t = useTranslations('AuditTable');
  return (e: AuditEntry) => {
    if (e.actorType === 'admin') return t('actors.admin');
    if (e.actorType === 'system') return t('actors.system');
    const key = /^API key (.+)$/.exec(e.actorLabel);
    if (e.actorType === 'api_key' && key) return t('actors.apiKey', { key: key[1] });
    const removed = /^Removed user #(\d+)$/.exec(e.actorLabel);
    if (removed) return t('actors.removedUser', { id: removed[1] });
    return e.actorLabel;
  };
}

/** A table on wide screens, stacked blocks at phone width; each entry is a sentence with its amounts and old and new values. */
export function AuditTable({ items, dates }: { items: AuditEntry[]; dates: DateSettings }) {
  const t = useTranslations('AuditTable');
  const actorName = useActorName();
  return (
    <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      <table className="w-full text-sm" data-testid="audit-table">
        <caption className="sr-only">{t('caption')}</caption>
        <TableHead variant="stacking" columns={[t('time'), t('who'), t('what')]} />
        <tbody className="divide-y divide-slate-100">
          {items.map((e) => (
            <tr key={e.id} className="grid grid-cols-1 gap-1 px-4 py-3 md:table-row md:p-0" data-testid="audit-row">
              <td className="text-xs text-slate-600 md:px-4 md:py-3 md:align-top md:text-sm md:whitespace-nowrap">
                <LocalTime iso={e.createdAt} />
              </td>
              <td className="min-w-0 md:w-56 md:px-4 md:py-3 md:align-top">
                <span className="font-medium text-slate-900 [overflow-wrap:anywhere]">{actorName(e)}</span>{' '}
                <span className="text-xs text-slate-600">({ACTOR_TYPES.has(e.actorType) ? t(`actorTypes.${e.actorType}`) : t('actorTypes.other')})</span>
              </td>
              <td className="break-words text-slate-800 md:px-4 md:py-3" data-testid="audit-sentence">
                {auditSentence(e, dates.timeZone, dates)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <TimeZoneNote className="mt-2" />
    </div>
  );
}
