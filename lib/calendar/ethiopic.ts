import { validationError } from '../errors';
import { zonedDayStart } from '../time-zone';

/** A day of the Ethiopian calendar: month 1 is Meskerem, 13 is Pagume (5 days, 6 in the year before a year divisible by 4). */
export type EthiopicDate = { year: number; month: number; day: number };

/** The instants a period covers, half-open: `from` is in it, `to` is the first instant after it. */
export type Period = { from: Date; to: Date };

const HAMLE = 11;
const PAGUME = 13;
/** Julian day number of Meskerem 1 of year 1 (29 August 8 AD, Julian). */
const JDN_OF_YEAR_ONE = 1724221;
const JDN_OF_UNIX_EPOCH = 2440588;
/** Meskerem 1 of 9992 is in September 9999: its Pagume would be in Gregorian year 10000, which an ISO day cannot write. */
const LAST_YEAR = 9991;

const dateFormatters = new Map<string, Intl.DateTimeFormat>();

function dateFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = dateFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-u-ca-ethiopic', { timeZone, era: 'short', year: 'numeric', month: 'numeric', day: 'numeric' });
    dateFormatters.set(timeZone, f);
  }
  return f;
}

/** The Ethiopian date an instant falls on in the zone, as the platform's ICU calendar reads it. */
export function ethiopicDate(instant: Date, timeZone: string): EthiopicDate {
  const p = Object.fromEntries(
    dateFormatter(timeZone)
      .formatToParts(instant)
      .map((x) => [x.type, x.value]),
  );
  // Before 8 AD ICU counts years from the creation (Amete Alem), 5500 years earlier than the years of mercy.
  const year = p.era === 'AA' ? Number(p.year) - 5500 : Number(p.year);
  return { year, month: Number(p.month), day: Number(p.day) };
}

const isEthiopicLeapYear = (year: number) => year % 4 === 3;

/** Days in an Ethiopian month: 30, or 5 or 6 for Pagume. */
export const ethiopicMonthLength = (year: number, month: number) => (month < PAGUME ? 30 : isEthiopicLeapYear(year) ? 6 : 5);

/** Why the triple is no Ethiopian date we can turn into an ISO day, or undefined when it is one. */
function whyNotADate(year: number, month: number, day: number): string | undefined {
  if (!Number.isInteger(year) || year < 1 || year > LAST_YEAR) return `The year must be a whole number from 1 to ${LAST_YEAR}.`;
  if (!Number.isInteger(month) || month < 1 || month > PAGUME) return 'The month must be a whole number from 1 (Meskerem) to 13 (Pagume).';
  const length = ethiopicMonthLength(year, month);
  if (!Number.isInteger(day) || day < 1 || day > length) {
    return month === PAGUME ? `Pagume ${year} has ${length} days.` : 'The day must be a whole number from 1 to 30.';
  }
  return undefined;
}

export const isEthiopicDate = (year: number, month: number, day: number) => whyNotADate(year, month, day) === undefined;

/**
 * The Gregorian day (YYYY-MM-DD) of an Ethiopian date, through its Julian day number: every year has 365
 * days and one more when it leaves a remainder of 3 by 4, every month 30. Throws a validation error on the
 * field `date` for a day that does not exist (Pagume 6 in a common year, month 14, day 31).
 */
export function gregorianDayOfEthiopic(year: number, month: number, day: number): string {
  const why = whyNotADate(year, month, day);
  if (why) throw validationError('date', why);
  const jdn = JDN_OF_YEAR_ONE + 365 * (year - 1) + Math.floor(year / 4) + 30 * (month - 1) + day - 1;
  return new Date((jdn - JDN_OF_UNIX_EPOCH) * 86_400_000).toISOString().slice(0, 10);
}

/** An Ethiopian month in the zone: from midnight of its first day to midnight of the next month's first day. */
export function ethiopicMonthPeriod(year: number, month: number, timeZone: string): Period {
  const first = gregorianDayOfEthiopic(year, month, 1);
  const next = month === PAGUME ? gregorianDayOfEthiopic(year + 1, 1, 1) : gregorianDayOfEthiopic(year, month + 1, 1);
  return { from: zonedDayStart(first, timeZone), to: zonedDayStart(next, timeZone) };
}

/**
 * Fiscal year N runs from Hamle 1 of year N-1 to Sene 30 of year N (13 months, Pagume included) and is
 * named by the year it ends in, as the Ethiopian government names its budget years: fiscal year 2017 is
 * 8 July 2024 to 7 July 2025.
 */
export function ethiopicFiscalYearPeriod(fiscalYear: number, timeZone: string): Period {
  return {
    from: zonedDayStart(gregorianDayOfEthiopic(fiscalYear - 1, HAMLE, 1), timeZone),
    to: zonedDayStart(gregorianDayOfEthiopic(fiscalYear, HAMLE, 1), timeZone),
  };
}

/** The fiscal year (named as ethiopicFiscalYearPeriod names it) an instant falls in, in the zone. */
export function ethiopicFiscalYearOf(instant: Date, timeZone: string): number {
  const { year, month } = ethiopicDate(instant, timeZone);
  return month >= HAMLE ? year + 1 : year;
}
