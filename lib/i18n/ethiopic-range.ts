import { ethiopicDate, ethiopicFiscalYearOf, ethiopicMonthLength, gregorianDayOfEthiopic, isEthiopicDate } from '../calendar/ethiopic';

/** A report's range of calendar days (YYYY-MM-DD, both included), as its from/to fields take it. */
export interface DayRange {
  from: string;
  to: string;
}

const HAMLE = 11;
const SENE = 10;

/**
 * The days of an Ethiopian month (`eth_month=2019-03`, Hedar 2019) or fiscal year (`eth_year=2018`, Hamle 1 2017
 * to Sene 30 2018), the last day cut at today: the report then reads them as any other range, and its exports
 * keep ISO days. Undefined when neither is asked for, or the value names no month or year.
 */
export function ethiopicRange(params: { eth_month?: string; eth_year?: string }, today: string): DayRange | undefined {
  const month = /^(\d{4})-(\d{2})$/.exec(params.eth_month ?? '');
  let range: DayRange | undefined;
  if (month) {
    const [y, m] = [Number(month[1]), Number(month[2])];
    if (!isEthiopicDate(y, m, 1)) return undefined;
    range = { from: gregorianDayOfEthiopic(y, m, 1), to: gregorianDayOfEthiopic(y, m, ethiopicMonthLength(y, m)) };
  } else if (/^\d{4}$/.test(params.eth_year ?? '')) {
    const fy = Number(params.eth_year);
    if (!isEthiopicDate(fy - 1, HAMLE, 1) || !isEthiopicDate(fy, SENE, 30)) return undefined;
    range = { from: gregorianDayOfEthiopic(fy - 1, HAMLE, 1), to: gregorianDayOfEthiopic(fy, SENE, 30) };
  }
  if (!range || range.from > today) return undefined;
  return { from: range.from, to: range.to > today ? today : range.to };
}

/** The Ethiopian months up to the one now is in, newest first, for a picker: `{ value: '2019-03', year, month }`. */
export function recentEthiopicMonths(now: Date, timeZone: string, count: number): { value: string; year: number; month: number }[] {
  let { year, month } = ethiopicDate(now, timeZone);
  const out: { value: string; year: number; month: number }[] = [];
  for (let i = 0; i < count; i++) {
    out.push({ value: `${year}-${String(month).padStart(2, '0')}`, year, month });
    if (--month === 0) {
      month = 13;
      year--;
    }
  }
  return out;
}

/** The fiscal years up to the current one, newest first. */
export function recentFiscalYears(now: Date, timeZone: string, count: number): number[] {
  const current = ethiopicFiscalYearOf(now, timeZone);
  return Array.from({ length: count }, (_, i) => current - i);
}
