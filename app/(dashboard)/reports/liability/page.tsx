import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { ethiopicPeriodSelects } from '@/components/reports/ethiopic-periods';
import { LiabilityBreakage } from '@/components/reports/liability-breakage';
import { LiabilityDormant } from '@/components/reports/liability-dormant';
import { LiabilityFilters } from '@/components/reports/liability-filters';
import { LiabilitySummary } from '@/components/reports/liability-summary';
import { DataAgeNote } from '@/components/ui/data-age-note';
import { Notice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { dayIn, zoneLabel } from '@/lib/time-zone';
import { LinkButton } from '@/components/ui/link-button';
import { breakageEstimates, recognisedBreakage, windowStartDay } from '@/lib/reports/breakage';
import { parseLiabilityParams, type LiabilityOptions, type LiabilityReport } from '@/lib/reports/liability/definitions';
import { dormantCards, liabilityReport } from '@/lib/reports/liability/query';
import { CURRENCIES } from '@/lib/validation';
import { formatCalendarDay, formatDay as formatDayIn } from '@/lib/i18n/date-text';
import { dateSettingsOf } from '@/server/date-settings';
import { pageRead } from '@/server/read-your-writes';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('Reports');
  return { title: t('liability.metaTitle') };
}

const PAGE_SIZE = 25;
type Params = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function query(values: Record<string, string | number | undefined>) {
  const params = new URLSearchParams(Object.entries(values).flatMap(([k, v]) => (v === undefined || v === '' ? [] : [[k, String(v)]])));
  const s = params.toString();
  return s ? `?${s}` : '';
}

async function Breakage({
  opts,
  report,
  dayLabel,
  formatDay,
  dayLabelOf,
}: {
  opts: LiabilityOptions;
  report: LiabilityReport;
  dayLabel: string;
  formatDay: (at: Date) => string;
  dayLabelOf: (day: string) => string;
}) {
  const {
    value: [estimates, recognised],
  } = await pageRead((db) => Promise.all([breakageEstimates(db, opts, report), recognisedBreakage(db, opts)]));
  return (
    <LiabilityBreakage
      estimates={estimates}
      recognised={recognised}
      dayLabel={dayLabel}
      formatDay={formatDay}
      windowStartLabel={dayLabelOf(windowStartDay(opts.day, opts.dormantDays))}
    />
  );
}

export default async function LiabilityPage({ searchParams }: { searchParams: Promise<Params> }) {
  const session = await requirePage('reports:read');
  const params = await searchParams;
  const [t, tShell, dates] = await Promise.all([getTranslations('Reports'), getTranslations('Shell'), dateSettingsOf(session)]);
  // An Ethiopian month or fiscal year picked in the form is read as its last day; the exports keep ISO days.
  const { value, errors } = parseLiabilityParams(params, session.timeZone);
  const periods = await ethiopicPeriodSelects(dates, '/reports/liability', { eth_month: first(params.eth_month), eth_year: first(params.eth_year) });
  const opts: LiabilityOptions = {
    businessId: session.businessId,
    mode: session.mode,
    timeZone: session.timeZone,
    day: value.day,
    dormantDays: value.dormantDays,
  };
  const {
    value: [report, dormant],
    lagMs,
  } = await pageRead((db) =>
    Promise.all([
      liabilityReport(db, opts),
      dormantCards(db, { ...opts, currency: value.currency, after: value.after, before: value.before, limit: PAGE_SIZE }),
    ]),
  );
  const dayLabelOf = (day: string) => formatCalendarDay(day, dates);
  const dayLabel = dayLabelOf(value.day);
  const formatDay = (at: Date) => formatDayIn(at, dates);
  const shared = { day: value.day, dormant: value.dormantDays };
  return (
    <>
      <PageHeader
        title={t('liability.title')}
        description={t('liability.intro', { mode: tShell(`modes.${session.mode}`) })}
        actions={
          <>
            <LinkButton href={`/reports/liability/export/aged${query(shared)}`} variant="secondary" download>
              {t('liability.exportAged')}
            </LinkButton>
            <LinkButton href={`/reports/liability/export/dormant${query({ ...shared, currency: value.currency })}`} variant="secondary" download>
              {t('liability.exportDormant')}
            </LinkButton>
          </>
        }
      />
      <DataAgeNote lagMs={lagMs} />
      <LiabilityFilters
        values={value}
        raw={{ day: first(params.day), dormant: first(params.dormant), currency: first(params.currency) }}
        errors={errors}
        today={dayIn(session.timeZone, new Date())}
        currencies={CURRENCIES}
        periods={periods.selects}
      />
      {Object.keys(errors).length > 0 && (
        <div className="mb-4">
          <Notice tone="error" testId="liability-errors">
            {t('someOptionsRefused')}
          </Notice>
        </div>
      )}
      <p className="mb-4 text-sm text-slate-700" data-testid="as-of">
        {t.rich(`liability.asOf.${report.isToday ? 'today' : 'past'}`, {
          day: dayLabel,
          zone: zoneLabel(session.timeZone, report.asOf.end),
          strong: (chunks) => <strong>{chunks}</strong>,
        })}
      </p>
      <LiabilitySummary report={report} dayLabel={dayLabel} />
      <div className="mt-6">
        <Suspense
          fallback={
            <p className="rounded-xl bg-white p-4 text-sm text-slate-600 shadow-sm ring-1 ring-slate-200" role="status">
              {t('liability.workingOut')}
            </p>
          }
        >
          <Breakage opts={opts} report={report} dayLabel={dayLabel} formatDay={formatDay} dayLabelOf={dayLabelOf} />
        </Suspense>
      </div>
      <section aria-labelledby="dormant-title" className="mt-6">
        <h2 id="dormant-title" className="text-lg font-semibold text-slate-900">
          {t('liability.dormantTitle')}
        </h2>
        <p className="mb-3 mt-1 text-sm text-slate-600">
          {value.currency
            ? t('liability.dormantIntroIn', { days: value.dormantDays, day: dayLabel, currency: value.currency })
            : t('liability.dormantIntro', { days: value.dormantDays, day: dayLabel })}
        </p>
        <LiabilityDormant
          page={dormant}
          dormantDays={value.dormantDays}
          dayLabel={dayLabel}
          formatDay={formatDay}
          pageHref={(cursor) => `/reports/liability${query({ ...shared, currency: value.currency, ...cursor })}`}
        />
      </section>
    </>
  );
}
