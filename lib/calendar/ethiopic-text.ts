import { gregorianDayOfEthiopic } from './ethiopic';

export type CalendarLocale = 'am' | 'en';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: CalendarLocale, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone} ${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(`${locale}-u-ca-ethiopic`, { timeZone, ...options });
    formatters.set(key, f);
  }
  return f;
}

/**
 * An instant's Ethiopian date in the zone with the month's name, in ICU's own words and order:
 * `27 ኅዳር 2019` in Amharic, `Hedar 27, 2019` in English. The era (English ICU adds `AM`) is left out in
 * both: the month's name already says which calendar the date is in, and Amharic writes no era letters.
 */
export function formatEthiopicDate(instant: Date, timeZone: string, locale: CalendarLocale): string {
  return formatter(locale, timeZone, { year: 'numeric', month: 'long', day: 'numeric' })
    .formatToParts(instant)
    .filter((part) => part.type !== 'era')
    .map((part) => part.value)
    .join('')
    .trim();
}

const monthNames = new Map<CalendarLocale, string[]>();

/** The 13 month names, Meskerem to Pagume, for a picker: read from ICU by naming one day in each month. */
export function ethiopicMonthNames(locale: CalendarLocale): readonly string[] {
  let names = monthNames.get(locale);
  if (!names) {
    const f = formatter(locale, 'UTC', { month: 'long' });
    names = Array.from({ length: 13 }, (_, i) => f.format(new Date(`${gregorianDayOfEthiopic(2015, i + 1, 1)}T12:00:00Z`)));
    monthNames.set(locale, names);
  }
  return names;
}
