/** True for a zone the runtime's Intl knows (IANA names such as Africa/Addis_Ababa, or UTC). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(timeZone: string, at: Date) {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return { year: +p.year, month: +p.month, day: +p.day, hour: +p.hour, minute: +p.minute, second: +p.second };
}

/** Milliseconds the zone's wall clock is ahead of UTC at that instant. */
function offsetAt(timeZone: string, at: Date): number {
  const p = partsIn(timeZone, at);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant a calendar day (YYYY-MM-DD) begins in the zone, daylight saving included. */
export function zonedDayStart(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d);
  // Two passes: the offset at the first guess may differ from the offset at midnight across a clock change.
  let guess = wall - offsetAt(timeZone, new Date(wall));
  guess = wall - offsetAt(timeZone, new Date(guess));
  if (dayIn(timeZone, new Date(guess)) === day) return new Date(guess);
  // Midnight does not exist where clocks jump forward at 00:00 (America/Santiago, America/Havana): the day
  // begins at the jump, the first instant whose wall clock reads this day. Clock changes are at most a few hours.
  let before = guess;
  let after = guess + 6 * 3_600_000;
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (dayIn(timeZone, new Date(mid)) < day) before = mid;
    else after = mid;
  }
  return new Date(after);
}

/**
 * A calendar day the dashboard accepts in a URL: YYYY-MM-DD, a date that
 * exists, in the years 1970 to 9998, so that the day after it and the instant
 * it starts are always dates PostgreSQL and JavaScript can both hold.
 */
export function isCalendarDay(value: string | undefined): value is string {
  if (!value || !/^\d{4}-\d\d-\d\d$/.test(value)) return false;
  const year = Number(value.slice(0, 4));
  // Month 13 or day 45 is no date at all: toISOString would throw on it.
  const at = new Date(`${value}T00:00:00Z`);
  return year >= 1970 && year <= 9998 && !Number.isNaN(at.getTime()) && at.toISOString().startsWith(value);
}

/** A from day after the to day (both YYYY-MM-DD): a list filtered so is empty for that reason alone, and says so. */
export const isReversedRange = (f: { from?: string; to?: string }) => f.from !== undefined && f.to !== undefined && f.from > f.to;

/** The calendar day after `day` (YYYY-MM-DD). */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** The calendar day (YYYY-MM-DD) an instant falls on in the zone. */
export function dayIn(timeZone: string, at: Date): string {
  const p = partsIn(timeZone, at);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** "2026-11-24 14:05" on the zone's wall clock: for exports and anywhere a fixed, sortable form reads best. */
export function wallClock(timeZone: string, at: Date): string {
  const p = partsIn(timeZone, at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${dayIn(timeZone, at)} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}

const displayFormatters = new Map<string, Intl.DateTimeFormat>();

/** "24 Nov 2026, 14:05" in the zone, the same on the server and in every browser. */
export function formatDateTime(timeZone: string, at: Date): string {
  let f = displayFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    displayFormatters.set(timeZone, f);
  }
  return f.format(at);
}

/** How a table names its zone: "Africa/Addis_Ababa (UTC+3)". */
export function zoneLabel(timeZone: string, at = new Date()): string {
  const minutes = Math.round(offsetAt(timeZone, at) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const offset = abs === 0 ? 'UTC' : `UTC${sign}${Math.floor(abs / 60)}${abs % 60 ? `:${String(abs % 60).padStart(2, '0')}` : ''}`;
  return timeZone === 'UTC' ? 'UTC' : `${timeZone.replaceAll('_', ' ')} (${offset})`;
}

/** ISO 8601 with the zone's offset, "2026-11-25T00:30:00+03:00": local to the business and still one exact instant. */
export function isoInZone(timeZone: string, at: Date): string {
  const minutes = Math.round(offsetAt(timeZone, at) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${wallClock(timeZone, at).replace(' ', 'T')}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/**
 * The instant a wall-clock time (YYYY-MM-DDTHH:mm, seconds optional) names in the zone: two passes, as
 * zonedDayStart, so the offset is the one in force at that time, not at the first guess.
 */
export function zonedWallTime(local: string, timeZone: string): Date {
  const [day, time] = local.split('T');
  const [y, m, d] = day.split('-').map(Number);
  const [hh, mm, ss = '0'] = time.split(':');
  const wall = Date.UTC(y, m - 1, d, Number(hh), Number(mm), Math.floor(Number(ss)));
  const guess = wall - offsetAt(timeZone, new Date(wall));
  return new Date(wall - offsetAt(timeZone, new Date(guess)));
}

/** An instant as a datetime-local field's value (YYYY-MM-DDTHH:mm) on the zone's wall clock. */
export function wallClockInput(timeZone: string, at: Date): string {
  return wallClock(timeZone, at).slice(0, 16).replace(' ', 'T');
}
