import { eq } from 'drizzle-orm';
import { getTranslations } from 'next-intl/server';
import { TillReportTable } from '@/components/till/till-report-table';
import { TillView } from '@/components/till/till-view';
import { Panel } from '@/components/ui/page-header';
import { tillReport } from '@/lib/dashboard/till';
import { getDb } from '@/lib/db/client';
import { businesses } from '@/lib/db/schema';
import { formatCalendarDay } from '@/lib/i18n/date-text';
import { listLocations } from '@/lib/locations/locations';
import { dayIn } from '@/lib/time-zone';
import { dateSettingsOf } from '@/server/date-settings';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('Till');
  return { title: t('metaTitle') };
}

/** The counter: a cashier's whole dashboard, and the day's own figures below it. */
export default async function TillPage() {
  const session = await requirePage('till');
  const db = getDb();
  const t = await getTranslations('Till');
  const day = dayIn(session.timeZone, new Date());
  const [[business], rows, branches, dates] = await Promise.all([
    db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, session.businessId)),
    tillReport(db, { businessId: session.businessId, mode: session.mode, day, timeZone: session.timeZone, userId: session.userId }),
    listLocations(db, session.businessId),
    dateSettingsOf(session),
  ]);
  const names = new Map(branches.map((b) => [b.id, b.name]));
  const branch = session.locationId != null ? names.get(session.locationId) : undefined;
  return (
    <div className="space-y-6">
      <div className="text-center">
        <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
        {branch && <p className="text-sm text-slate-600">{t('atBranch', { branch })}</p>}
      </div>
      <TillView businessName={business?.name ?? ''} />
      <Panel title={t('myDay', { day: formatCalendarDay(day, dates) })}>
        <TillReportTable rows={rows} branches={names} />
      </Panel>
    </div>
  );
}
