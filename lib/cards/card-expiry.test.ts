import { describe, expect, it } from 'vitest';
import { cardExpiresAt } from './card-expiry';

const twelve = { kind: 'after_issue' as const, months: 12 };

describe('cardExpiresAt', () => {
  it('never gives no date', () => {
    expect(cardExpiresAt({ kind: 'never' }, new Date('2026-03-10T10:00:00Z'), 'UTC')).toBeNull();
  });

  it('ends at the last millisecond of the same local day N months later', () => {
    expect(cardExpiresAt(twelve, new Date('2026-03-10T10:00:00Z'), 'Africa/Addis_Ababa')?.toISOString()).toBe('2027-03-10T20:59:59.999Z');
  });

  it('counts the day in the business zone, not in UTC, at a day boundary', () => {
    // 22:30 UTC on 31 January is already 1 February in Addis Ababa (UTC+3), still 31 January in UTC.
    const issued = new Date('2026-01-31T22:30:00Z');
    expect(cardExpiresAt({ kind: 'after_issue', months: 1 }, issued, 'Africa/Addis_Ababa')?.toISOString()).toBe('2026-03-01T20:59:59.999Z');
    expect(cardExpiresAt({ kind: 'after_issue', months: 1 }, issued, 'UTC')?.toISOString()).toBe('2026-02-28T23:59:59.999Z');
    // West of UTC: 02:00 UTC on 1 March is still 28 February in New York.
    const west = new Date('2026-03-01T02:00:00Z');
    expect(cardExpiresAt({ kind: 'after_issue', months: 1 }, west, 'America/New_York')?.toISOString()).toBe('2026-03-29T03:59:59.999Z');
  });

  it('clamps to the last day of a shorter month, leap years included', () => {
    expect(cardExpiresAt({ kind: 'after_last_load', months: 1 }, new Date('2027-01-31T12:00:00Z'), 'UTC')?.toISOString()).toBe('2027-02-28T23:59:59.999Z');
    expect(cardExpiresAt({ kind: 'after_last_load', months: 1 }, new Date('2028-01-31T12:00:00Z'), 'UTC')?.toISOString()).toBe('2028-02-29T23:59:59.999Z');
    expect(cardExpiresAt({ kind: 'after_issue', months: 13 }, new Date('2026-08-31T12:00:00Z'), 'UTC')?.toISOString()).toBe('2027-09-30T23:59:59.999Z');
  });

  it('follows daylight saving: the day ends at local midnight whatever the offset', () => {
    // Issued in New York winter (UTC-5), expiring in summer (UTC-4).
    expect(cardExpiresAt({ kind: 'after_issue', months: 6 }, new Date('2026-01-15T17:00:00Z'), 'America/New_York')?.toISOString()).toBe(
      '2026-07-16T03:59:59.999Z',
    );
  });
});
