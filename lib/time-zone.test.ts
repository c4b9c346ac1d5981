import { describe, expect, it } from 'vitest';
import {
  dayIn,
  formatDateTime,
  isCalendarDay,
  isoInZone,
  isTimeZone,
  nextDay,
  wallClock,
  wallClockInput,
  zonedDayStart,
  zonedWallTime,
  zoneLabel,
} from './time-zone';

describe('business time zones', () => {
  it('starts a day at local midnight', () => {
    expect(zonedDayStart('2026-11-24', 'Africa/Addis_Ababa').toISOString()).toBe('2026-11-23T21:00:00.000Z');
    expect(zonedDayStart('2026-11-24', 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(zonedDayStart('2026-01-15', 'America/New_York').toISOString()).toBe('2026-01-15T05:00:00.000Z');
    expect(zonedDayStart('2026-07-15', 'America/New_York').toISOString()).toBe('2026-07-15T04:00:00.000Z');
    expect(zonedDayStart('2026-11-24', 'Asia/Kolkata').toISOString()).toBe('2026-11-23T18:30:00.000Z');
  });

  it('finds midnight on the days clocks change', () => {
    // New York springs forward at 02:00 on 8 March 2026 and falls back on 1 November.
    expect(zonedDayStart('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(zonedDayStart('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(zonedDayStart('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });

  it('puts 21:30 UTC on the next day in Addis Ababa', () => {
    const at = new Date('2026-11-24T21:30:00Z');
    expect(dayIn('Africa/Addis_Ababa', at)).toBe('2026-11-25');
    expect(wallClock('Africa/Addis_Ababa', at)).toBe('2026-11-25 00:30:00');
    expect(formatDateTime('Africa/Addis_Ababa', at)).toBe('25 Nov 2026, 00:30');
    expect(isoInZone('Africa/Addis_Ababa', at)).toBe('2026-11-25T00:30:00+03:00');
    expect(isoInZone('America/New_York', at)).toBe('2026-11-24T16:30:00-05:00');
    expect(isoInZone('UTC', at)).toBe('2026-11-24T21:30:00+00:00');
  });

  it('steps calendar days across months and years', () => {
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
  });

  it('knows real zones and refuses the rest', () => {
    expect(isTimeZone('Africa/Addis_Ababa')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('names the zone with its offset', () => {
    expect(zoneLabel('Africa/Addis_Ababa')).toBe('Africa/Addis Ababa (UTC+3)');
    expect(zoneLabel('Asia/Kolkata')).toBe('Asia/Kolkata (UTC+5:30)');
    expect(zoneLabel('UTC')).toBe('UTC');
  });
});

describe('days where midnight does not exist', () => {
  it('begin at the jump: Santiago on 2024-09-08 and Havana on 2024-03-10 start at 01:00 local', () => {
    for (const [zone, day] of [
      ['America/Santiago', '2024-09-08'],
      ['America/Havana', '2024-03-10'],
    ] as const) {
      const start = zonedDayStart(day, zone);
      expect(dayIn(zone, start)).toBe(day);
      expect(dayIn(zone, new Date(start.getTime() - 1))).not.toBe(day);
      expect(wallClock(zone, start)).toBe(`${day} 01:00:00`);
    }
  });

  it('and an ordinary day still begins at midnight', () => {
    expect(zonedDayStart('2026-11-24', 'Africa/Addis_Ababa').toISOString()).toBe('2026-11-23T21:00:00.000Z');
    expect(zonedDayStart('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
  });
});

describe('isCalendarDay', () => {
  it('takes real days from 1970 to 9998 only', () => {
    expect(isCalendarDay('2026-11-24')).toBe(true);
    expect(isCalendarDay('2024-02-29')).toBe(true);
    for (const bad of [
      '2026-02-30',
      '2026-13-45',
      '2026-99-99',
      '2026-00-10',
      '9999-12-31',
      '1969-12-31',
      '0000-01-01',
      '2026-1-01',
      '',
      undefined,
      '2026-11-24T00:00',
    ]) {
      expect(isCalendarDay(bad), String(bad)).toBe(false);
    }
  });

  it('reads a datetime-local value on the zone’s wall clock, and writes one back', () => {
    expect(zonedWallTime('2026-01-10T11:00', 'Africa/Addis_Ababa').toISOString()).toBe('2026-01-10T08:00:00.000Z');
    expect(zonedWallTime('2026-07-15T09:30', 'America/New_York').toISOString()).toBe('2026-07-15T13:30:00.000Z');
    expect(zonedWallTime('2026-01-15T09:30:15', 'America/New_York').toISOString()).toBe('2026-01-15T14:30:15.000Z');
    expect(zonedWallTime('2026-11-24T00:00', 'Asia/Kolkata').toISOString()).toBe('2026-11-23T18:30:00.000Z');
    expect(wallClockInput('Africa/Addis_Ababa', new Date('2026-01-10T08:00:59Z'))).toBe('2026-01-10T11:00');
  });
});
