import { useLocale, useTranslations } from 'next-intl';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import type { ProviderBalances } from '@/lib/providers/provider-records';
import type { ProviderReconciliation } from '@/lib/reports/provider-reconciliation';
import { dayLabel } from './reconciliation-table';

/** The provider's balances, as it gives them now (owner and finance; the service's own account with it). */
export function ProviderBalancesSection({ provider, balances }: { provider: string; balances: ProviderBalances }) {
  const t = useTranslations('ProviderReconciliation');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  return (
    <section aria-labelledby="provider-balances" className="mb-6" data-testid="provider-balances">
      <h2 id="provider-balances" className="mb-2 text-lg font-semibold text-slate-900">
        {t('balances.title', { provider })}
      </h2>
      {balances.shown ? (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {balances.balances.map((b) => (
            <li key={b.currency} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
              <p className="text-sm font-medium text-slate-700">{b.currency}</p>
              <p className="mt-1 text-xl font-semibold text-slate-900" data-testid={`provider-available-${b.currency}`}>
                {b.available === null ? t('balances.notGiven') : formatMoney(b.available, b.currency, locale)}
              </p>
              <p className="text-sm text-slate-600">
                {b.ledger === null ? t('balances.ledgerNotGiven') : t('balances.ledger', { amount: formatMoney(b.ledger, b.currency, locale) })}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <Notice tone="info">
          {balances.why === 'shared' ? t('balances.shared', { provider }) : t('balances.unread', { provider, reason: balances.reason })}
        </Notice>
      )}
    </section>
  );
}

/** The provider column: each day's provider transactions and transfers against our payments and payouts, differences listed. */
export function ProviderReconciliationSection({ report, dayText = dayLabel }: { report: ProviderReconciliation; dayText?: (day: string) => string }) {
  const t = useTranslations('ProviderReconciliation');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const provider = report.provider;
  const money = (minor: number, currency: string) => formatMoney(minor, currency, locale);
  const theirs = (minor: number | null, currency: string) => (minor === null ? <span className="text-slate-600">{t('notRead')}</span> : money(minor, currency));
  return (
    <section aria-labelledby="provider-recon" className="mb-8" data-testid="provider-recon">
      <h2 id="provider-recon" className="mb-2 text-lg font-semibold text-slate-900">
        {t('title', { provider })}
      </h2>
      {report.unread.map((u) => (
        <div key={u.listing} className="mb-3" data-testid={`provider-unread-${u.listing}`}>
          <Notice tone="error">{t('unread', { listing: t(`listings.${u.listing}`, { provider }), reason: u.reason })}</Notice>
        </div>
      ))}
      {report.days.length === 0 ? (
        <p className="text-sm text-slate-700">{t('empty', { provider })}</p>
      ) : (
        <>
          {!report.complete && (
            <div className="mb-3">
              <Notice tone="info">{t('cutShort', { provider })}</Notice>
            </div>
          )}
          <section
            className="overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200 focus-visible:outline-3 focus-visible:outline-emerald-700"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways must take focus, so a keyboard can scroll it.
            tabIndex={0}
            aria-label={t('tableLabel', { provider })}
          >
            <table className="min-w-full text-sm">
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2 text-left font-medium">
                    {t('columns.day')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t('columns.payments')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t('columns.receivedLedger')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t('columns.receivedProvider', { provider })}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t('columns.transfers')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t('columns.paidOutLedger')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t('columns.paidOutProvider', { provider })}
                  </th>
                  <th scope="col" className="px-3 py-2 text-left font-medium">
                    {t('columns.differences')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.days.map((d) => (
                  <tr key={`${d.day}-${d.currency}`} className="border-t border-slate-100" data-testid={`provider-day-${d.day}-${d.currency}`}>
                    <td className="whitespace-nowrap px-3 py-2">
                      <time dateTime={d.day}>{dayText(d.day)}</time> · {d.currency}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">{d.payments}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{money(d.oursReceived, d.currency)}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{theirs(d.theirsReceived, d.currency)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{d.transfers}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{money(d.oursSettled, d.currency)}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{theirs(d.theirsSettled, d.currency)}</td>
                    <td className="px-3 py-2">
                      {d.differences.length === 0 && (d.theirsReceived === null || d.theirsSettled === null) ? (
                        <span className="text-slate-700">{t('noneAmongRead')}</span>
                      ) : d.differences.length === 0 ? (
                        <span className="text-emerald-800">{t('none')}</span>
                      ) : (
                        <ul className="space-y-1">
                          {d.differences.map((x) => (
                            <li key={x.reference}>
                              <span className="font-mono">{x.reference}</span>:{' '}
                              {t(`differences.${x.code}`, {
                                provider,
                                theirs: x.theirs?.status || t('nothing'),
                                ours: x.ours.status,
                              })}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}
    </section>
  );
}
