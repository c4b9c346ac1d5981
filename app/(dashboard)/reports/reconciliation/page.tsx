import { reportQuery, ReportFilters } from '@/components/reports/report-filters';
import { ReconciliationDefinitions } from '@/components/reports/reconciliation-definitions';
import { ReconciliationProblems } from '@/components/reports/reconciliation-problems';
import { ReconciliationTable } from '@/components/reports/reconciliation-table';
import { ChapaBalances, ProviderReconciliationSection } from '@/components/reports/provider-reconciliation';
import { Notice } from '@/components/ui/notice';
import { EmptyState, PageHeader } from '@/components/ui/page-header';
import { LinkButton } from '@/components/ui/link-button';
import { getDb } from '@/lib/db/client';
import { chapaBalancesFor } from '@/lib/rails/chapa/chapa-balances';
import { chapaConfig } from '@/lib/rails/chapa/config';
import { providerReconciliation } from '@/lib/reports/provider-reconciliation';
import { MAX_RECONCILIATION_DAYS, parseReconciliationParams } from '@/lib/reports/reconciliation/definitions';
import { reconciliationReport } from '@/lib/reports/reconciliation/report';
import { CURRENCIES } from '@/lib/validation';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Daily reconciliation · Gift cards' };

type Params = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function ReconciliationPage({ searchParams }: { searchParams: Promise<Params> }) {
  const session = await requirePage('reports:read');
  const params = await searchParams;
  const { value, errors, today } = parseReconciliationParams(params, session.timeZone);
  const options = { businessId: session.businessId, mode: session.mode, timeZone: session.timeZone, ...value };
  const db = getDb();
  const config = session.mode === 'live' ? chapaConfig() : null;
  const [report, provider, balances] = await Promise.all([
    reconciliationReport(db, options),
    providerReconciliation(db, config, options),
    chapaBalancesFor(db, config, session.businessId),
  ]);
  const broken = report.days.filter((d) => !d.reconciles);
  return (
    <>
      <PageHeader
        title="Daily reconciliation"
        description={`Per day and currency in ${session.mode} mode: the money that came in and went out by type, reversals and fees, from the ledger, checked three ways: every transaction balances, every balance follows from the movements before it, and the ledger agrees with your payouts and payments.`}
        actions={
          <LinkButton
            href={`/reports/reconciliation/export${reportQuery({ from: value.from, to: value.to, currency: value.currency })}`}
            variant="secondary"
            download
          >
            Export CSV
          </LinkButton>
        }
      />
      <ReportFilters
        id="recon"
        path="/reports/reconciliation"
        from={value.from}
        to={value.to}
        raw={{ from: first(params.from), to: first(params.to) }}
        errors={errors}
        today={today}
        selects={[
          {
            name: 'currency',
            label: 'Currency',
            hint: `Up to ${MAX_RECONCILIATION_DAYS} days at a time.`,
            all: 'Every currency',
            options: CURRENCIES.map((c) => ({ value: c, label: c })),
            value: value.currency,
          },
        ]}
      />
      {Object.keys(errors).length > 0 && (
        <div className="mb-4">
          <Notice tone="error" testId="recon-errors">
            Some options could not be used (see above): the report below uses the defaults in their place.
          </Notice>
        </div>
      )}
      {report.days.length === 0 ? (
        <div className="mb-8">
          <EmptyState title="Nothing moved on these days">
            Days with no ledger transaction and no payout or payment are left out; there is nothing to reconcile.
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="mb-6" data-testid="recon-verdict">
            {broken.length === 0 ? (
              <Notice tone="success">
                Every day reconciles: {report.days.length} {report.days.length === 1 ? 'day and currency' : 'days and currencies'} with movements, each balanced
                and agreeing with your payouts and payments.
              </Notice>
            ) : (
              <Notice tone="error">
                {broken.length} of {report.days.length} {report.days.length === 1 ? 'day' : 'days'} do not reconcile. They are marked below, and the
                transactions that break them are listed under the tables.
              </Notice>
            )}
          </div>
          <p className="mb-4 text-sm text-slate-700">Days with no movement are left out. Amounts are in the currency named above each table.</p>
          {report.totals.map((t) => (
            <ReconciliationTable key={t.currency} currency={t.currency} days={report.days.filter((d) => d.currency === t.currency)} totals={t} />
          ))}
          <ReconciliationProblems days={report.days} truncated={report.truncated} />
        </>
      )}
      {balances && <ChapaBalances view={balances} />}
      {provider && <ProviderReconciliationSection report={provider} />}
      <ReconciliationDefinitions />
    </>
  );
}
