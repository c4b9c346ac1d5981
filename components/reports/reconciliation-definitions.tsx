import { useTranslations } from 'next-intl';
import { CROSS_CHECKS, FIGURES } from '@/lib/reports/reconciliation/definitions';

const GROUPS = ['in', 'out', 'reversals', 'fees', 'ledger'] as const;

/** Every column of the page and of the CSV, in words, and what the three checks compare; the CSV's own column names stay English. */
export function ReconciliationDefinitions() {
  const t = useTranslations('ReportsDefinitions');
  return (
    <section aria-labelledby="recon-definitions" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id="recon-definitions" className="text-lg font-semibold text-slate-900">
        {t('title')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t('intro')}</p>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        {GROUPS.map((group) => (
          <div key={group}>
            <h3 className="font-semibold text-slate-900">{t(`groups.${group}`)}</h3>
            <dl className="mt-2 space-y-2 text-sm">
              {FIGURES.filter((f) => f.group === group).map((f) => (
                <div key={f.key}>
                  <dt className="font-medium text-slate-900">
                    {t(`figures.${f.key}.label`)}
                    {!f.onPage && (
                      <span className="ml-1 text-xs font-normal text-slate-600">
                        {t.rich('csvOnly', { column: f.csv, code: (chunks) => <code className="font-mono">{chunks}</code> })}
                      </span>
                    )}
                  </dt>
                  <dd className="text-slate-700">{t(`figures.${f.key}.text`)}</dd>
                </div>
              ))}
              {group === 'ledger' && (
                <>
                  <div>
                    <dt className="font-medium text-slate-900">{t('trialBalance')}</dt>
                    <dd className="text-slate-700">{t('trialBalanceText')}</dd>
                  </div>
                  <div>
                    <dt className="font-medium text-slate-900">{t('balanceChain')}</dt>
                    <dd className="text-slate-700">{t('balanceChainText')}</dd>
                  </div>
                  <div>
                    <dt className="font-medium text-slate-900">{t('rowsAgree')}</dt>
                    <dd className="text-slate-700">
                      {t('rowsAgreeText')}
                      <ul className="mt-1 list-disc space-y-1 pl-5">
                        {Object.keys(CROSS_CHECKS).map((k) => (
                          <li key={k}>{t(`checks.${k}`)}</li>
                        ))}
                      </ul>
                    </dd>
                  </div>
                </>
              )}
            </dl>
          </div>
        ))}
      </div>
    </section>
  );
}
