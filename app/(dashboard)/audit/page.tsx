import { getTranslations } from 'next-intl/server';
import { AuditTable } from '@/components/audit/audit-table';
import { Button } from '@/components/ui/button';
import { DataAgeNote } from '@/components/ui/data-age-note';
import { LinkButton } from '@/components/ui/link-button';
import { EmptyState, PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { pageRead } from '@/server/read-your-writes';
import { dateSettingsOf } from '@/server/date-settings';
import { requirePage } from '@/server/session';
import {
  AUDIT_ACTION_FAMILIES,
  AUDIT_ACTOR_TYPES,
  AUDIT_COUNT_CAP,
  countAuditLog,
  listAuditLog,
  parseAuditCursor,
  type AuditActorType,
} from '@/lib/dashboard/list-audit-log';

export async function generateMetadata() {
  const t = await getTranslations('Audit');
  return { title: t('metaTitle') };
}

const PAGE_SIZE = 25;
const control =
  'mt-1 block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 focus-visible:outline-3 focus-visible:outline-emerald-700';

type Search = { actor?: string; action?: string; before?: string; after?: string };

function query(filters: { actor?: string; action?: string }, cursor: Record<string, string>) {
  const params = new URLSearchParams(Object.entries({ ...filters, ...cursor }).filter((e): e is [string, string] => !!e[1]));
  const s = params.toString();
  return s ? `/audit?${s}` : '/audit';
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requirePage('audit:read');
  const sp = await searchParams;
  const [t, tShell, dates] = await Promise.all([getTranslations('Audit'), getTranslations('Shell'), dateSettingsOf(session)]);
  const actor: AuditActorType | undefined = AUDIT_ACTOR_TYPES.find((a) => a === sp.actor);
  const action = AUDIT_ACTION_FAMILIES.find((f) => f === sp.action);
  const {
    value: [log, count],
    lagMs,
  } = await pageRead((db) =>
    Promise.all([
      listAuditLog(db, {
        businessId: session.businessId,
        mode: session.mode,
        limit: PAGE_SIZE,
        actorType: actor,
        action,
        before: parseAuditCursor(sp.before) ? sp.before : undefined,
        after: parseAuditCursor(sp.after) ? sp.after : undefined,
      }),
      countAuditLog(db, { businessId: session.businessId, mode: session.mode, actorType: actor, action }),
    ]),
  );
  const counted =
    count > AUDIT_COUNT_CAP
      ? t(`counted.${actor || action ? 'overFiltered' : 'over'}`, { cap: AUDIT_COUNT_CAP })
      : t(`counted.${actor || action ? 'filtered' : 'all'}`, { count });
  const filters = { actor, action };
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('intro', { mode: tShell(`modes.${session.mode}`) })}
        actions={
          <LinkButton href={query(filters, {}).replace('/audit', '/audit/export')} variant="secondary" download>
            {t('exportCsv')}
          </LinkButton>
        }
      />
      <DataAgeNote lagMs={lagMs} />
      <form
        method="get"
        action="/audit"
        className="mb-4 grid gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
      >
        <div>
          <label htmlFor="audit-actor" className="block text-sm font-medium text-slate-800">
            {t('actor')}
          </label>
          <select id="audit-actor" name="actor" defaultValue={actor ?? ''} className={control}>
            <option value="">{t('everyone')}</option>
            {AUDIT_ACTOR_TYPES.map((a) => (
              <option key={a} value={a}>
                {t(`actors.${a}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-action" className="block text-sm font-medium text-slate-800">
            {t('action')}
          </label>
          <select id="audit-action" name="action" defaultValue={action ?? ''} className={control}>
            <option value="">{t('everything')}</option>
            {AUDIT_ACTION_FAMILIES.map((f) => (
              <option key={f} value={f}>
                {t(`families.${f}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex gap-2">
          <Button type="submit" className="flex-1">
            {t('filter')}
          </Button>
          {(actor || action) && (
            <LinkButton href="/audit" variant="secondary">
              {t('clear')}
            </LinkButton>
          )}
        </div>
      </form>
      {log.items.length === 0 ? (
        <EmptyState title={actor || action ? t('emptyFiltered') : t('emptyTitle')}>{t('empty')}</EmptyState>
      ) : (
        <>
          <p className="mb-2 text-sm font-medium text-slate-800" data-testid="audit-count">
            {counted}
          </p>
          <AuditTable items={log.items} dates={dates} />
        </>
      )}
      <Pager
        label={t('pages')}
        prev={log.newer ? { href: query(filters, { after: log.newer }), label: t('newer') } : null}
        next={log.older ? { href: query(filters, { before: log.older }), label: t('older') } : null}
      />
    </>
  );
}
