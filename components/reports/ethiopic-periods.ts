import { getTranslations } from 'next-intl/server';
import { ethiopicMonthNames } from '@/lib/calendar/ethiopic-text';
import type { DateSettings } from '@/lib/i18n/date-text';
import { recentEthiopicMonths, recentFiscalYears } from '@/lib/i18n/ethiopic-range';
import type { ReportSelect } from './report-filters';

/**
 * A reader of the Ethiopian calendar picks a report's period as an Ethiopian month (`eth_month`) or fiscal
 * year (`eth_year`), in the business's zone, and "This month" is the current Ethiopian month; a reader of
 * the Gregorian calendar gets neither.
 */
export async function ethiopicPeriodSelects(
  dates: DateSettings,
  path: string,
  /** The period the URL asked for, shown back as chosen. */
  asked: { eth_month?: string; eth_year?: string } = {},
  now = new Date(),
): Promise<{ selects: ReportSelect[]; thisMonthHref?: string }> {
  if (dates.calendar !== 'ethiopic') return { selects: [] };
  const t = await getTranslations('Reports');
  const names = ethiopicMonthNames(dates.locale);
  const months = recentEthiopicMonths(now, dates.timeZone, 13);
  return {
    thisMonthHref: `${path}?eth_month=${months[0].value}`,
    selects: [
      {
        name: 'eth_month',
        label: t('ethiopianMonth'),
        hint: t('ethiopianMonthHint'),
        all: t('pickPeriod'),
        options: months.map((m) => ({ value: m.value, label: `${names[m.month - 1]} ${m.year}` })),
        value: asked.eth_month,
      },
      {
        name: 'eth_year',
        label: t('fiscalYear'),
        hint: t('fiscalYearHint'),
        all: t('pickPeriod'),
        options: recentFiscalYears(now, dates.timeZone, 5).map((y) => ({ value: String(y), label: t('fiscalYearName', { year: String(y) }) })),
        value: asked.eth_month ? undefined : asked.eth_year,
      },
    ],
  };
}
