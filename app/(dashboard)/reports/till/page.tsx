import { getTranslations } from 'next-intl/server';
import { TillReportTable } from '@/components/till/till-report-table';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { tillReport } from '@/lib/dashboard/till';
import { getDb } from '@/lib/db/client';
import { formatCalendarDay } from '@/lib/i18n/date-text';
import { listLocations } from '@/lib/locations/locations';
import { dayIn, isCalendarDay } from '@/lib/time-zone';
import { dateSettingsOf } from '@/server/date-settings';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('Till.branchReport');
  return { title: t('metaTitle') };
}

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The till report of a day, for every branch or one (?location=), by cashier. */
export default async function TillReportPage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requirePage('reports:read');
  const sp = await searchParams;
  const t = await getTranslations('Till.branchReport');
  const db = getDb();
  const asked = one(sp.day);
  const day = isCalendarDay(asked) ? asked : dayIn(session.timeZone, new Date());
  const branches = await listLocations(db, session.businessId);
  const chosen = branches.find((b) => String(b.id) === one(sp.location));
  const [rows, dates] = await Promise.all([
    tillReport(db, { businessId: session.businessId, mode: session.mode, day, timeZone: session.timeZone, locationId: chosen?.id }),
    dateSettingsOf(session),
  ]);
  return (
    <>
      <PageHeader title={t('title')} description={t('intro')} back={{ href: '/reports', label: t('back') }} />
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3 text-sm">
        <label className="block">
          <span className="block font-medium text-slate-800">{t('branch')}</span>
          <select name="location" defaultValue={chosen ? String(chosen.id) : ''} className="mt-1 min-h-10 rounded-lg border border-slate-300 bg-white px-2">
            <option value="">{t('allBranches')}</option>
            {branches.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        <label className="block">
          <span className="block font-medium text-slate-800">{t('day')}</span>
          <input type="date" name="day" defaultValue={day} className="mt-1 min-h-10 rounded-lg border border-slate-300 bg-white px-2" />
        </label>
        <button type="submit" className="min-h-10 rounded-lg bg-emerald-700 px-4 font-semibold text-white">
          {t('show')}
        </button>
      </form>
      <Panel title={t('heading', { branch: chosen?.name ?? t('allBranches'), day: formatCalendarDay(day, dates) })}>
        <TillReportTable rows={rows} branches={new Map(branches.map((b) => [b.id, b.name]))} />
      </Panel>
    </>
  );
}
