import { reportQuery, ReportFilters } from '@/components/reports/report-filters';
import { ReconciliationDefinitions } from '@/components/reports/reconciliation-definitions';
import { ReconciliationProblems } from '@/components/reports/reconciliation-problems';
import { dayLabel, ReconciliationTable } from '@/components/reports/reconciliation-table';
import { formatCalendarDay } from '@/lib/i18n/date-text';
import { ProviderBalancesSection, ProviderReconciliationSection } from '@/components/reports/provider-reconciliation';
import { Notice } from '@/components/ui/notice';
import { EmptyState, PageHeader } from '@/components/ui/page-header';
import { LinkButton } from '@/components/ui/link-button';
import { getTranslations } from 'next-intl/server';
import { getDb } from '@/lib/db/client';
import { registeredProvider } from '@/lib/providers/provider-registry';
import { providerReconciliation } from '@/lib/reports/provider-reconciliation';
import { MAX_RECONCILIATION_DAYS, parseReconciliationParams } from '@/lib/reports/reconciliation/definitions';
import { reconciliationReport } from '@/lib/reports/reconciliation/report';
import { listLocations } from '@/lib/locations/locations';
import { CURRENCIES } from '@/lib/validation';
import { dateSettingsOf } from '@/server/date-settings';
import { requirePage } from '@/server/session';
import { ethiopicPeriodSelects } from '@/components/reports/ethiopic-periods';

export async function generateMetadata() {
  const t = await getTranslations('Reports');
  return { title: t('reconciliation.metaTitle') };
}

type Params = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function ReconciliationPage({ searchParams }: { searchParams: Promise<Params> }) {
  const session = await requirePage('reports:read');
  const params = await searchParams;
  const [t, tShell, dates] = await Promise.all([getTranslations('Reports'), getTranslations('Shell'), dateSettingsOf(session)]);
  // An Ethiopian month or fiscal year picked in the form is read as its range of days; the export keeps ISO days.
  const { value, errors, today } = parseReconciliationParams(params, session.timeZone);
  const periods = await ethiopicPeriodSelects(dates, '/reports/reconciliation', { eth_month: first(params.eth_month), eth_year: first(params.eth_year) });
  const db = getDb();
  const branches = await listLocations(db, session.businessId);
  // Another business's branch (or one that is no more) is refused like a mistyped one: nothing of it is shown.
  if (errors.location || (typeof value.location === 'number' && !branches.some((b) => b.id === value.location))) {
    errors.location = t('reconciliation.branchRefused');
  }
  const refused = errors.location !== undefined;
  const atBranch = value.location !== undefined && !refused;
  const options = { businessId: session.businessId, mode: session.mode, timeZone: session.timeZone, ...value, location: refused ? undefined : value.location };
  const of = atBranch ? undefined : registeredProvider(session.mode);
  const [report, provider, balances] = refused
    ? [null, null, null]
    : await Promise.all([reconciliationReport(db, options), providerReconciliation(db, of, options), of?.records.balances(db, session.businessId) ?? null]);
  const branchName = !report?.branch ? '' : report.branch === 'none' ? t('reconciliation.noBranch') : report.branch.name;
  const broken = (report?.days ?? []).filter((d) => !d.reconciles);
  const dayText = dates.calendar === 'gregorian' && dates.locale === 'en' ? dayLabel : (day: string) => formatCalendarDay(day, dates);
  return (
    <>
      <PageHeader
        title={t('reconciliation.title')}
        description={t('reconciliation.intro', { mode: tShell(`modes.${session.mode}`) })}
        actions={
          <LinkButton
            href={`/reports/reconciliation/export${reportQuery({ from: value.from, to: value.to, currency: value.currency, location: options.location })}`}
            variant="secondary"
            download
          >
            {t('exportCsv')}
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
        thisMonthHref={periods.thisMonthHref}
        selects={[
          {
            name: 'currency',
            label: t('currency'),
            hint: t('reconciliation.currencyHint', { days: MAX_RECONCILIATION_DAYS }),
            all: t('everyCurrency'),
            options: CURRENCIES.map((c) => ({ value: c, label: c })),
            value: value.currency,
          },
          ...(branches.length > 0
            ? [
                {
                  name: 'location',
                  label: t('reconciliation.branch'),
                  hint: t('reconciliation.branchHint'),
                  all: t('reconciliation.wholeBusiness'),
                  options: [...branches.map((b) => ({ value: String(b.id), label: b.name })), { value: 'none', label: t('reconciliation.noBranch') }],
                  value: options.location === undefined ? undefined : String(options.location),
                },
              ]
            : []),
          ...periods.selects,
        ]}
      />
      {Object.keys(errors).length > 0 && (
        <div className="mb-4">
          <Notice tone="error" testId="recon-errors">
            {t('someOptionsRefused')}
          </Notice>
        </div>
      )}
      {atBranch && report && (
        <div className="mb-4">
          <Notice tone="info" testId="recon-branch-note">
            {t('reconciliation.branchNote', { branch: branchName })}
          </Notice>
        </div>
      )}
      {!report ? null : report.days.length === 0 ? (
        <div className="mb-8">
          {atBranch ? (
            <EmptyState title={t('reconciliation.branchEmptyTitle')}>{t('reconciliation.branchEmpty')}</EmptyState>
          ) : (
            <EmptyState title={t('reconciliation.emptyTitle')}>{t('reconciliation.empty')}</EmptyState>
          )}
        </div>
      ) : (
        <>
          <div className="mb-6" data-testid="recon-verdict">
            {broken.length === 0 ? (
              <Notice tone="success">
                {atBranch
                  ? t('reconciliation.branchReconciles', { count: report.days.length })
                  : t('reconciliation.allReconcile', { count: report.days.length })}
              </Notice>
            ) : (
              <Notice tone="error">{t('reconciliation.someBroken', { broken: broken.length, count: report.days.length })}</Notice>
            )}
          </div>
          <p className="mb-4 text-sm text-slate-700">{t('reconciliation.tablesNote')}</p>
          {report.totals.map((total) => (
            <ReconciliationTable
              key={total.currency}
              currency={total.currency}
              days={report.days.filter((d) => d.currency === total.currency)}
              totals={total}
              dayText={dayText}
              branch={atBranch}
            />
          ))}
          <ReconciliationProblems days={report.days} truncated={report.truncated} />
        </>
      )}
      {of && balances && <ProviderBalancesSection provider={of.label} balances={balances} />}
      {provider && <ProviderReconciliationSection report={provider} dayText={dayText} />}
      <ReconciliationDefinitions />
    </>
  );
}
