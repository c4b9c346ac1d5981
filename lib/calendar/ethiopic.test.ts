import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors';
import { dayIn, nextDay } from '../time-zone';
import {
  ethiopicDate,
  ethiopicFiscalYearOf,
  ethiopicFiscalYearPeriod,
  ethiopicMonthLength,
  ethiopicMonthPeriod,
  gregorianDayOfEthiopic,
  isEthiopicDate,
  type Period,
} from './ethiopic';

const ADDIS = 'Africa/Addis_Ababa';
const noon = (day: string) => new Date(`${day}T12:00:00Z`);
const iso = (p: Period) => ({ from: p.from.toISOString(), to: p.to.toISOString() });

describe('Ethiopian dates against the platform ICU', () => {
  it('turns every day from 1950 to 2050 back to the Gregorian day ICU read it from, and walks Ethiopian days without a gap', () => {
    let previous = ethiopicDate(noon('1949-12-31'), 'UTC');
    let days = 0;
    for (let day = '1950-01-01'; day <= '2050-12-31'; day = nextDay(day)) {
      const e = ethiopicDate(noon(day), 'UTC');
      const back = gregorianDayOfEthiopic(e.year, e.month, e.day);
      // expect() only on a mismatch: 36,890 of them would take most of the test's time.
      if (back !== day) expect(back, `${day} read as ${JSON.stringify(e)}`).toBe(day);
      // The day after the previous one: so every Ethiopian date of these years is met, and no other.
      const last = previous.day === ethiopicMonthLength(previous.year, previous.month);
      const expected = !last
        ? { ...previous, day: previous.day + 1 }
        : previous.month === 13
          ? { year: previous.year + 1, month: 1, day: 1 }
          : { year: previous.year, month: previous.month + 1, day: 1 };
      if (e.year !== expected.year || e.month !== expected.month || e.day !== expected.day) expect(e, `after ${JSON.stringify(previous)}`).toEqual(expected);
      previous = e;
      days++;
    }
    expect(days).toBe(36_890);
  });

  it('reads the first and last Gregorian years the product needs in the years of mercy', () => {
    expect(ethiopicDate(noon('1900-01-01'), 'UTC')).toEqual({ year: 1892, month: 4, day: 23 });
    expect(ethiopicDate(noon('2200-12-31'), 'UTC')).toEqual({ year: 2193, month: 4, day: 20 });
    expect(gregorianDayOfEthiopic(1892, 4, 23)).toBe('1900-01-01');
    expect(gregorianDayOfEthiopic(2193, 4, 20)).toBe('2200-12-31');
  });

  it('has Pagume 6 in 2015 and New Year on 12 September after it', () => {
    expect(gregorianDayOfEthiopic(2015, 13, 5)).toBe('2023-09-10');
    expect(gregorianDayOfEthiopic(2015, 13, 6)).toBe('2023-09-11');
    expect(gregorianDayOfEthiopic(2016, 1, 1)).toBe('2023-09-12');
    expect(ethiopicDate(noon('2023-09-11'), 'UTC')).toEqual({ year: 2015, month: 13, day: 6 });
    expect(ethiopicDate(noon('2023-09-12'), 'UTC')).toEqual({ year: 2016, month: 1, day: 1 });
  });

  it('has New Year on 11 September in the other years', () => {
    expect(gregorianDayOfEthiopic(2016, 13, 5)).toBe('2024-09-10');
    expect(gregorianDayOfEthiopic(2017, 1, 1)).toBe('2024-09-11');
    expect(ethiopicDate(noon('2024-09-10'), 'UTC')).toEqual({ year: 2016, month: 13, day: 5 });
    expect(ethiopicDate(noon('2024-09-11'), 'UTC')).toEqual({ year: 2017, month: 1, day: 1 });
    expect(gregorianDayOfEthiopic(2019, 3, 27)).toBe('2026-12-06');
  });

  it('reads the date on the wall clock of the zone', () => {
    // 22:00 UTC on 10 September 2024 is already 01:00 on Meskerem 1 in Addis Ababa.
    const at = new Date('2024-09-10T22:00:00Z');
    expect(ethiopicDate(at, 'UTC')).toEqual({ year: 2016, month: 13, day: 5 });
    expect(ethiopicDate(at, ADDIS)).toEqual({ year: 2017, month: 1, day: 1 });
  });

  it('refuses a day that does not exist with a validation error on the date', () => {
    const refusal = (year: number, month: number, day: number) => {
      try {
        gregorianDayOfEthiopic(year, month, day);
      } catch (e) {
        expect(e).toBeInstanceOf(ServiceError);
        expect((e as ServiceError).code).toBe('validation_error');
        return (e as ServiceError).detail;
      }
      throw new Error(`${year}-${month}-${day} was accepted`);
    };
    expect(refusal(2016, 13, 6)).toEqual({ date: 'Pagume 2016 has 5 days.' });
    expect(refusal(2017, 14, 1)).toEqual({ date: 'The month must be a whole number from 1 (Meskerem) to 13 (Pagume).' });
    expect(refusal(2017, 0, 1)).toHaveProperty('date');
    expect(refusal(2017, 1, 31)).toEqual({ date: 'The day must be a whole number from 1 to 30.' });
    expect(refusal(2017, 1, 0)).toHaveProperty('date');
    expect(refusal(2017, 1, 1.5)).toHaveProperty('date');
    expect(refusal(0, 1, 1)).toHaveProperty('date');
    expect(refusal(9992, 1, 1)).toHaveProperty('date');
    expect(refusal(Number.NaN, 1, 1)).toHaveProperty('date');
    expect(isEthiopicDate(2015, 13, 6)).toBe(true);
    expect(isEthiopicDate(2016, 13, 6)).toBe(false);
  });
});

describe('Ethiopian months and fiscal years in a business time zone', () => {
  it('starts Meskerem 2017 at midnight in Addis Ababa', () => {
    expect(iso(ethiopicMonthPeriod(2017, 1, ADDIS))).toEqual({ from: '2024-09-10T21:00:00.000Z', to: '2024-10-10T21:00:00.000Z' });
    expect(iso(ethiopicMonthPeriod(2015, 13, ADDIS))).toEqual({ from: '2023-09-05T21:00:00.000Z', to: '2023-09-11T21:00:00.000Z' });
    expect(iso(ethiopicMonthPeriod(2016, 13, ADDIS))).toEqual({ from: '2024-09-05T21:00:00.000Z', to: '2024-09-10T21:00:00.000Z' });
    expect(iso(ethiopicMonthPeriod(2017, 1, 'UTC'))).toEqual({ from: '2024-09-11T00:00:00.000Z', to: '2024-10-11T00:00:00.000Z' });
  });

  it('names fiscal year 2017 for Hamle 1 2016 to Sene 30 2017 (8 July 2024 to 7 July 2025)', () => {
    expect(iso(ethiopicFiscalYearPeriod(2017, ADDIS))).toEqual({ from: '2024-07-07T21:00:00.000Z', to: '2025-07-07T21:00:00.000Z' });
    expect(ethiopicFiscalYearOf(new Date('2024-07-07T20:59:59.999Z'), ADDIS)).toBe(2016);
    expect(ethiopicFiscalYearOf(new Date('2024-07-07T21:00:00.000Z'), ADDIS)).toBe(2017);
    expect(ethiopicFiscalYearOf(new Date('2025-07-07T20:59:59.999Z'), ADDIS)).toBe(2017);
    expect(ethiopicFiscalYearOf(new Date('2025-07-07T21:00:00.000Z'), ADDIS)).toBe(2018);
  });

  for (const zone of [ADDIS, 'UTC', 'America/New_York', 'Europe/London', 'Asia/Kolkata']) {
    it(`tiles months and fiscal years with no gap or overlap in ${zone}`, () => {
      let previous: Period | undefined;
      for (let year = 2010; year <= 2022; year++) {
        for (let month = 1; month <= 13; month++) {
          const p = ethiopicMonthPeriod(year, month, zone);
          if (previous) expect(p.from.getTime(), `${year}-${month}`).toBe(previous.to.getTime());
          // The bounds are the local midnights of the month's first day and of the next month's.
          expect(ethiopicDate(p.from, zone)).toEqual({ year, month, day: 1 });
          expect(ethiopicDate(new Date(p.from.getTime() - 1), zone)).not.toEqual({ year, month, day: 1 });
          expect(ethiopicDate(new Date(p.to.getTime() - 1), zone)).toEqual({ year, month, day: ethiopicMonthLength(year, month) });
          expect(dayIn(zone, p.from)).toBe(gregorianDayOfEthiopic(year, month, 1));
          previous = p;
        }
      }
      for (let fy = 2011; fy <= 2022; fy++) {
        const fiscal = ethiopicFiscalYearPeriod(fy, zone);
        expect(fiscal.from).toEqual(ethiopicMonthPeriod(fy - 1, 11, zone).from);
        expect(fiscal.to).toEqual(ethiopicMonthPeriod(fy, 10, zone).to);
        expect(ethiopicFiscalYearPeriod(fy + 1, zone).from).toEqual(fiscal.to);
      }
    });
  }

  it('puts every ledger row in one month and its fiscal year, so month totals add up to the year', () => {
    // Rows every 7 h 13 min, so that they land at every hour of the local day, midnights included.
    const step = (7 * 60 + 13) * 60_000;
    const rows: Date[] = [];
    for (let t = Date.parse('2023-07-01T00:00:00Z'); t < Date.parse('2025-08-01T00:00:00Z'); t += step) rows.push(new Date(t));
    rows.push(new Date('2024-09-10T21:00:00Z'), new Date('2024-09-10T20:59:59.999Z'), new Date('2024-07-07T21:00:00Z'));
    const within = (p: Period) => rows.filter((r) => r >= p.from && r < p.to).length;
    for (const zone of [ADDIS, 'America/New_York']) {
      const fiscal = ethiopicFiscalYearPeriod(2017, zone);
      let months = 0;
      for (const [year, month] of [[2016, 11], [2016, 12], [2016, 13], ...Array.from({ length: 10 }, (_, i) => [2017, i + 1])]) {
        const p = ethiopicMonthPeriod(year, month, zone);
        const count = within(p);
        expect(count).toBe(
          rows.filter((r) => {
            const e = ethiopicDate(r, zone);
            return e.year === year && e.month === month;
          }).length,
        );
        months += count;
      }
      expect(months).toBe(within(fiscal));
      expect(within(fiscal)).toBe(rows.filter((r) => ethiopicFiscalYearOf(r, zone) === 2017).length);
    }
  });
});
