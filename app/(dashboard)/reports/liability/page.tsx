import { Suspense } from 'react';
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
import { pageRead } from '@/server/read-your-writes';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Liability and breakage · Gift cards' };

const PAGE_SIZE = 25;
type Params = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const dayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
const dayLabelOf = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

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
}: {
  opts: LiabilityOptions;
  report: LiabilityReport;
  dayLabel: string;
  formatDay: (at: Date) => string;
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
  const { value, errors } = parseLiabilityParams(params, session.timeZone);
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
  const dayLabel = dayLabelOf(value.day);
  const zoneDay = new Intl.DateTimeFormat('en-GB', { timeZone: session.timeZone, day: 'numeric', month: 'short', year: 'numeric' });
  const formatDay = (at: Date) => zoneDay.format(at);
  const shared = { day: value.day, dormant: value.dormantDays };
  return (
    <>
      <PageHeader
        title="Liability and breakage"
        description={`What your business owes card holders in ${session.mode} mode: the balances on its cards at the end of a day, recomputed from the ledger, aged by each card’s last movement, with an estimate of the part that will never be spent.`}
        actions={
          <>
            <LinkButton href={`/reports/liability/export/aged${query(shared)}`} variant="secondary" download>
              Export aged summary
            </LinkButton>
            <LinkButton href={`/reports/liability/export/dormant${query({ ...shared, currency: value.currency })}`} variant="secondary" download>
              Export dormant cards
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
      />
      {Object.keys(errors).length > 0 && (
        <div className="mb-4">
          <Notice tone="error" testId="liability-errors">
            Some options could not be used (see above): the report below uses the defaults in their place.
          </Notice>
        </div>
      )}
      <p className="mb-4 text-sm text-slate-700" data-testid="as-of">
        At the end of <strong>{dayLabel}</strong> in {zoneLabel(session.timeZone, report.asOf.end)}
        {report.isToday ? ' (today: every movement so far)' : ''}. A card’s balance is the balance after its last ledger movement before then; a cancelled card
        counts until its balance was moved to the business account.
      </p>
      <LiabilitySummary report={report} dayLabel={dayLabel} />
      <div className="mt-6">
        <Suspense
          fallback={
            <p className="rounded-xl bg-white p-4 text-sm text-slate-600 shadow-sm ring-1 ring-slate-200" role="status">
              Working out the breakage estimate…
            </p>
          }
        >
          <Breakage opts={opts} report={report} dayLabel={dayLabel} formatDay={formatDay} />
        </Suspense>
      </div>
      <section aria-labelledby="dormant-title" className="mt-6">
        <h2 id="dormant-title" className="text-lg font-semibold text-slate-900">
          Dormant cards
        </h2>
        <p className="mb-3 mt-1 text-sm text-slate-600">
          Cards holding a balance with no movement for more than {value.dormantDays} days at the end of {dayLabel}
          {value.currency ? `, in ${value.currency}` : ''}, largest balance first.
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
