import { describe, expect, it } from 'vitest';
import { ethiopicRange, recentEthiopicMonths, recentFiscalYears } from './ethiopic-range';

describe('ethiopicRange', () => {
  const today = '2026-12-07'; // 28 Hedar 2019

  it('turns an Ethiopian month into its Gregorian days, cut at today', () => {
    expect(ethiopicRange({ eth_month: '2019-02' }, today)).toEqual({ from: '2026-10-11', to: '2026-11-09' });
    expect(ethiopicRange({ eth_month: '2019-03' }, today)).toEqual({ from: '2026-11-10', to: '2026-12-07' });
    expect(ethiopicRange({ eth_month: '2018-13' }, today)).toEqual({ from: '2026-09-06', to: '2026-09-10' });
  });

  it('turns a fiscal year into Hamle 1 to Sene 30', () => {
    expect(ethiopicRange({ eth_year: '2017' }, today)).toEqual({ from: '2024-07-08', to: '2025-07-07' });
    expect(ethiopicRange({ eth_year: '2019' }, today)).toEqual({ from: '2026-07-08', to: '2026-12-07' });
  });

  it('asks for nothing on a month or year that does not exist, or has not begun', () => {
    expect(ethiopicRange({ eth_month: '2019-14' }, today)).toBeUndefined();
    expect(ethiopicRange({ eth_month: '2019-04' }, today)).toBeUndefined();
    expect(ethiopicRange({ eth_year: 'x' }, today)).toBeUndefined();
    expect(ethiopicRange({}, today)).toBeUndefined();
  });

  it('lists the months and fiscal years a picker offers, newest first', () => {
    const now = new Date('2026-12-07T09:00:00Z');
    expect(recentEthiopicMonths(now, 'Africa/Addis_Ababa', 4).map((m) => m.value)).toEqual(['2019-03', '2019-02', '2019-01', '2018-13']);
    expect(recentFiscalYears(now, 'Africa/Addis_Ababa', 3)).toEqual([2019, 2018, 2017]);
  });
});
