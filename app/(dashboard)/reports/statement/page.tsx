import Link from 'next/link';
import { reportQuery, ReportFilters } from '@/components/reports/report-filters';
import { StatementSummaryPanel } from '@/components/reports/statement-summary';
import { StatementTable } from '@/components/reports/statement-table';
import { DataAgeNote } from '@/components/ui/data-age-note';
import { Notice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { formatDateTime } from '@/lib/time-zone';
import { LinkButton } from '@/components/ui/link-button';
import { parseStatementParams, statementCurrencies, statementPage, statementSummary } from '@/lib/reports/business-statement';
import { STATEMENT_KIND_LABELS, STATEMENT_KINDS } from '@/lib/reports/statement-kinds';
import { CURRENCIES } from '@/lib/validation';
import { pageRead } from '@/server/read-your-writes';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Business account statement · Gift cards' };

const PAGE_SIZE = 50;
const inlineLink = 'font-medium text-emerald-800 underline underline-offset-2 hover:text-emerald-950 focus-visible:outline-2 focus-visible:outline-emerald-700';

type Params = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const dayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
const dayLabel = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

export default async function StatementPage({ searchParams }: { searchParams: Promise<Params> }) {
  const session = await requirePage('reports:read');
  const params = await searchParams;
  const { value: held } = await pageRead((db) => statementCurrencies(db, session));
  const { value, errors, today } = parseStatementParams(params, session.timeZone, held);
  const opts = {
    businessId: session.businessId,
    mode: session.mode,
    timeZone: session.timeZone,
    currency: value.currency,
    from: value.from,
    to: value.to,
    kind: value.kind,
  };
  const {
    value: [summary, page],
    lagMs,
  } = await pageRead((db) =>
    Promise.all([statementSummary(db, opts), statementPage(db, { ...opts, after: value.after, before: value.before, limit: PAGE_SIZE })]),
  );
  const shared = { from: value.from, to: value.to, currency: value.currency, kind: value.kind };
  return (
    <>
      <PageHeader
        title="Business account statement"
        description={`Every movement of your business account in ${session.mode} mode, oldest first, with the balance after each: deposits, top-ups paid to cards and the ones that came back, balances swept in from cancelled cards, business payouts received and refunds that landed here.`}
        actions={
          <LinkButton href={`/reports/statement/export${reportQuery(shared)}`} variant="secondary" download>
            Export CSV
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
        selects={[
          {
            name: 'currency',
            label: 'Currency',
            hint: held.length ? 'One account per currency.' : 'Your business holds no currency yet.',
            options: [...held, ...CURRENCIES.filter((c) => !held.includes(c))].map((c) => ({ value: c, label: held.includes(c) ? c : `${c} (no account)` })),
            value: value.currency,
          },
          {
            name: 'kind',
            label: 'Kind of movement',
            hint: 'Totals count this kind only.',
            all: 'Every movement',
            options: STATEMENT_KINDS.map((k) => ({ value: k, label: STATEMENT_KIND_LABELS[k] })),
            value: value.kind,
          },
        ]}
      />
      {Object.keys(errors).length > 0 && (
        <div className="mb-4">
          <Notice tone="error" testId="statement-errors">
            Some options could not be used (see above): the statement below uses the defaults in their place.
          </Notice>
        </div>
      )}
      <DataAgeNote lagMs={lagMs} />
      <StatementSummaryPanel summary={summary} fromLabel={dayLabel(value.from)} toLabel={dayLabel(value.to)} />
      <p className="mb-4 text-sm text-slate-700" data-testid="b2b-sent-note">
        Business payouts you send (B2B) are paid from your cards, not from this account:{' '}
        <Link href="/payouts?type=b2b" className={inlineLink}>
          see them in Payouts
        </Link>
        .
      </p>
      <StatementTable
        page={page}
        currency={value.currency}
        formatTime={(at) => formatDateTime(session.timeZone, at)}
        pageHref={(cursor) => `/reports/statement${reportQuery({ ...shared, ...cursor })}`}
        filtered={!!value.kind}
      />
    </>
  );
}
