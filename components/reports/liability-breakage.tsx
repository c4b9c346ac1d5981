import { useLocale, useTranslations } from 'next-intl';
import { formatMoney as formatMoneyIn } from '@/components/ui/money';
import { type BreakageEstimate, percentText, type RecognisedBreakage } from '@/lib/reports/breakage';

/**
 * The breakage estimate per currency, with the method and its figures in
 * words, or a plain statement that the history is too short to give one.
 */
export function LiabilityBreakage({
  estimates,
  recognised,
  dayLabel,
  formatDay,
  windowStartLabel,
}: {
  estimates: BreakageEstimate[];
  /** Balances of cards that expired up to the day's end: breakage that has happened. */
  recognised: RecognisedBreakage[];
  dayLabel: string;
  formatDay: (at: Date) => string;
  /** The day the dormancy window opens, as people read it. */
  windowStartLabel: string;
}) {
  const t = useTranslations('ReportsLiabilityPanels');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const formatMoney = (minor: number, currency: string) => formatMoneyIn(minor, currency, locale);
  const n = estimates[0]?.dormantDays ?? 0;
  return (
    <section aria-labelledby="breakage-title" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6" data-testid="breakage">
      <h2 id="breakage-title" className="text-base font-semibold text-slate-900">
        {t('breakage.title')}
      </h2>
      <p className="mt-2 text-sm text-slate-700" data-testid="breakage-recognised">
        {recognised.length === 0
          ? t('breakage.recognisedNone', { day: dayLabel })
          : t('breakage.recognised', {
              day: dayLabel,
              list: recognised
                .map((r) => t('breakage.recognisedItem', { amount: formatMoney(r.amount, r.currency), count: r.cards }))
                .join(t('breakage.listSeparator')),
            })}
      </p>
      <h3 className="mt-4 text-sm font-semibold text-slate-900">{t('breakage.expected')}</h3>
      {estimates.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700" data-testid="breakage-none">
          {t('breakage.none')}
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-700" data-testid="breakage-method">
            {t('breakage.method', { windowStart: windowStartLabel, days: n, day: dayLabel })}
          </p>
          <ul className="mt-4 grid gap-3">
            {estimates.map((e) => (
              <li key={e.currency} className="rounded-lg bg-slate-50 p-3 text-sm" data-testid={`breakage-${e.currency}`}>
                {e.rate && e.expected !== null ? (
                  <>
                    <p className="font-medium text-slate-900">
                      {t.rich('breakage.estimate', {
                        currency: e.currency,
                        amount: formatMoney(e.expected, e.currency),
                        liability: formatMoney(e.liability, e.currency),
                        rate: percentText(e.rate),
                        expected: (chunks) => <span data-testid="breakage-expected">{chunks}</span>,
                        percent: (chunks) => <span data-testid="breakage-rate">{chunks}</span>,
                      })}
                    </p>
                    <p className="mt-1 text-slate-700">
                      {t('breakage.loaded', {
                        loaded: formatMoney(e.loadedBefore, e.currency),
                        windowStart: windowStartLabel,
                        dormant: formatMoney(e.dormantBalance, e.currency),
                        days: n,
                      })}
                    </p>
                  </>
                ) : (
                  <p className="text-slate-800" data-testid="breakage-too-short">
                    {t('breakage.tooShort', {
                      currency: e.currency,
                      windowStart: windowStartLabel,
                      first: e.firstLoadAt ? t('breakage.firstLoad', { day: formatDay(e.firstLoadAt) }) : '',
                      days: n,
                    })}
                  </p>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
