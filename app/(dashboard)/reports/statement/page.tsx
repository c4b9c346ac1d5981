import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { reportQuery, ReportFilters } from '@/components/reports/report-filters';
import { StatementSummaryPanel } from '@/components/reports/statement-summary';
import { StatementTable } from '@/components/reports/statement-table';
import { DataAgeNote } from '@/components/ui/data-age-note';
import { Notice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { ethiopicMonthNames } from '@/lib/calendar/ethiopic-text';
import { formatCalendarDay, formatDayTime } from '@/lib/i18n/date-text';
import { ethiopicRange, recentEthiopicMonths, recentFiscalYears } from '@/lib/i18n/ethiopic-range';
import { dayIn } from '@/lib/time-zone';
import { LinkButton } from '@/components/ui/link-button';
import { parseStatementParams, statementCurrencies, statementPage, statementSummary } from '@/lib/reports/business-statement';
import { STATEMENT_KINDS } from '@/lib/reports/statement-kinds';
import { listLocations } from '@/lib/locations/locations';
import { CURRENCIES } from '@/lib/validation';
import { pageRead } from '@/server/read-your-writes';
import { dateSettingsOf } from '@/server/date-settings';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('Statement');
  return { title: t('metaTitle') };
}

const PAGE_SIZE = 50;
const inlineLink = 'font-medium text-emerald-800 underline underline-offset-2 hover:text-emerald-950 focus-visible:outline-2 focus-visible:outline-emerald-700';

type Params = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function StatementPage({ searchParams }: { searchParams: Promise<Params> }) {
  const session = await requirePage('reports:read');
  const asked = await searchParams;
  const [t, dates] = await Promise.all([getTranslations('Statement'), dateSettingsOf(session)]);
  const now = new Date();
  // An Ethiopian month or fiscal year picked in the form is read as its range of days; exports keep ISO days.
  const period = ethiopicRange({ eth_month: first(asked.eth_month), eth_year: first(asked.eth_year) }, dayIn(session.timeZone, now));
  const params = period ? { ...asked, ...period } : asked;
  const dayLabel = (day: string) => formatCalendarDay(day, dates);
  const ethiopian = dates.calendar === 'ethiopic';
  const monthNames = ethiopicMonthNames(dates.locale);
  const months = ethiopian ? recentEthiopicMonths(now, session.timeZone, 13) : [];
  const { value: held } = await pageRead((db) => statementCurrencies(db, session));
  const { value: branches } = await pageRead((db) => listLocations(db, session.businessId));
  const tBranches = await getTranslations('Locations');
  const { value, errors, today } = parseStatementParams(params, session.timeZone, held);
  const opts = {
    businessId: session.businessId,
    mode: session.mode,
    timeZone: session.timeZone,
    currency: value.currency,
    from: value.from,
    to: value.to,
    kind: value.kind,
    location: value.location,
  };
  const {
    value: [summary, page],
    lagMs,
  } = await pageRead((db) =>
    Promise.all([statementSummary(db, opts), statementPage(db, { ...opts, after: value.after, before: value.before, limit: PAGE_SIZE })]),
  );
  const shared = { from: value.from, to: value.to, currency: value.currency, kind: value.kind, location: value.location };
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('intro', { mode: (await getTranslations('Shell'))(`modes.${session.mode}`) })}
        actions={
          <LinkButton href={`/reports/statement/export${reportQuery(shared)}`} variant="secondary" download>
            {t('export')}
          </LinkButton>
        }
      />
      <ReportFilters
        id="statement"
        path="/reports/statement"
        from={value.from}
        to={value.to}
        raw={{ from: first(params.from), to: first(params.to) }}
        errors={errors}
        today={today}
        thisMonthHref={ethiopian ? `/reports/statement?eth_month=${months[0].value}` : undefined}
        selects={[
          {
            name: 'currency',
            label: t('currency'),
            hint: held.length ? t('currencyHint') : t('noCurrency'),
            options: [...held, ...CURRENCIES.filter((c) => !held.includes(c))].map((c) => ({
              value: c,
              label: held.includes(c) ? c : t('noAccount', { currency: c }),
            })),
            value: value.currency,
          },
          {
            name: 'kind',
            label: t('kind'),
            hint: t('kindHint'),
            all: t('everyKind'),
            options: STATEMENT_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) })),
            value: value.kind,
          },
          ...(branches.length > 0
            ? [
                {
                  name: 'location',
                  label: tBranches('filter'),
                  hint: tBranches('filterHint'),
                  all: tBranches('allBranches'),
                  options: branches.map((b) => ({ value: String(b.id), label: b.name })),
                  value: value.location === undefined ? undefined : String(value.location),
                },
              ]
            : []),
          ...(ethiopian
            ? [
                {
                  name: 'eth_month',
                  label: t('ethiopianMonth'),
                  hint: t('ethiopianMonthHint'),
                  all: t('pickPeriod'),
                  options: months.map((m) => ({ value: m.value, label: `${monthNames[m.month - 1]} ${m.year}` })),
                },
                {
                  name: 'eth_year',
                  label: t('fiscalYear'),
                  hint: t('fiscalYearHint'),
                  all: t('pickPeriod'),
                  options: recentFiscalYears(now, session.timeZone, 5).map((y) => ({ value: String(y), label: t('fiscalYearName', { year: String(y) }) })),
                },
              ]
            : []),
        ]}
      />
      {Object.keys(errors).length > 0 && (
        <div className="mb-4">
          <Notice tone="error" testId="statement-errors">
            {t('someOptionsRefused')}
          </Notice>
        </div>
      )}
      <DataAgeNote lagMs={lagMs} />
      <StatementSummaryPanel summary={summary} fromLabel={dayLabel(value.from)} toLabel={dayLabel(value.to)} />
      <p className="mb-4 text-sm text-slate-700" data-testid="b2b-sent-note">
        {t.rich('b2bNote', {
          link: (chunks) => (
            <Link href="/payouts?type=b2b" className={inlineLink}>
              {chunks}
            </Link>
          ),
        })}
      </p>
      <StatementTable
        page={page}
        currency={value.currency}
        formatTime={(at) => formatDayTime(at, dates)}
        pageHref={(cursor) => `/reports/statement${reportQuery({ ...shared, ...cursor })}`}
        filtered={!!value.kind || value.location !== undefined}
      />
    </>
  );
}
