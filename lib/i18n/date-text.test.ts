import { describe, expect, it } from 'vitest';
import { formatCalendarDay, formatDay, formatDayTime } from './date-text';

const at = new Date('2026-12-06T21:30:00Z'); // 7 December 2026, 00:30 in Addis Ababa
const zone = 'Africa/Addis_Ababa';

describe('formatDay and formatDayTime', () => {
  it('write the Ethiopian date with the month name and no era, in the business zone', () => {
    expect(formatDay(at, { locale: 'am', calendar: 'ethiopic', timeZone: zone })).toBe('28 ኅዳር 2019');
    expect(formatDay(at, { locale: 'en', calendar: 'ethiopic', timeZone: zone })).toBe('Hedar 28, 2019');
    expect(formatDay(at, { locale: 'am', calendar: 'ethiopic', timeZone: 'UTC' })).toBe('27 ኅዳር 2019');
    expect(formatDayTime(at, { locale: 'am', calendar: 'ethiopic', timeZone: zone })).toBe('28 ኅዳር 2019, 00:30');
  });

  it('write Gregorian dates as the language does, English unchanged from before', () => {
    expect(formatDay(at, { locale: 'en', calendar: 'gregorian', timeZone: zone })).toBe('7 Dec 2026');
    expect(formatDayTime(at, { locale: 'en', calendar: 'gregorian', timeZone: zone })).toBe('7 Dec 2026, 00:30');
    expect(formatDay(at, { locale: 'am', calendar: 'gregorian', timeZone: zone })).toBe('7 ዲሴምበር 2026');
    expect(formatDayTime(at, { locale: 'am', calendar: 'gregorian', timeZone: zone })).not.toMatch(/[A-Za-z]/);
  });

  it('write a report’s calendar day in either calendar', () => {
    expect(formatCalendarDay('2026-12-07', { locale: 'am', calendar: 'ethiopic' })).toBe('28 ኅዳር 2019');
    expect(formatCalendarDay('2026-12-07', { locale: 'en', calendar: 'gregorian' })).toBe('7 Dec 2026');
  });
});
