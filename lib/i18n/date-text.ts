import { formatEthiopicDate } from '../calendar/ethiopic-text';
import { formatDateTime } from '../time-zone';
import type { CalendarChoice, Locale } from './locale';

/** How one person reads dates: their language and calendar, on the business's wall clock. */
export interface DateSettings {
  locale: Locale;
  calendar: CalendarChoice;
  timeZone: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, f);
  }
  return f;
}

/**
 * The day an instant falls on, as the person reads it: `27 ኅዳር 2019` or `Hedar 27, 2019` in the Ethiopian
 * calendar, `7 ዲሴምበር 2026` or `7 Dec 2026` in the Gregorian one.
 */
export function formatDay(at: Date, s: DateSettings): string {
  if (s.calendar === 'ethiopic') return formatEthiopicDate(at, s.timeZone, s.locale);
  return s.locale === 'am'
    ? formatter('am', { timeZone: s.timeZone, day: 'numeric', month: 'long', year: 'numeric' }).format(at)
    : formatter('en-GB', { timeZone: s.timeZone, day: 'numeric', month: 'short', year: 'numeric' }).format(at);
}

/** The day and the 24-hour wall-clock time: one form for every timestamp a page shows. */
export function formatDayTime(at: Date, s: DateSettings): string {
  if (s.calendar === 'gregorian' && s.locale === 'en') return formatDateTime(s.timeZone, at);
  const time = formatter('en-GB', { timeZone: s.timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return `${formatDay(at, s)}, ${time}`;
}

/** A calendar day (YYYY-MM-DD, as reports take them) written as the person reads it; a day has no zone to honour. */
export function formatCalendarDay(day: string, s: Omit<DateSettings, 'timeZone'>): string {
  return formatDay(new Date(`${day}T12:00:00Z`), { ...s, timeZone: 'UTC' });
}
