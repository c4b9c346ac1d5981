import { dayIn, zonedDayStart } from '../time-zone';

export const EXPIRY_POLICIES = ['never', 'after_issue', 'after_last_load'] as const;
export type ExpiryPolicyKind = (typeof EXPIRY_POLICIES)[number];

/** A business's expiry policy: never (the default), or `months` after a card's issue or its last load. */
export type ExpiryPolicy = { kind: 'never' } | { kind: 'after_issue' | 'after_last_load'; months: number };

export const MAX_EXPIRY_MONTHS = 120;

export function expiryPolicyOf(row: { expiryPolicy: ExpiryPolicyKind; expiryMonths: number | null }): ExpiryPolicy {
  return row.expiryPolicy === 'never' || row.expiryMonths === null ? { kind: 'never' } : { kind: row.expiryPolicy, months: row.expiryMonths };
}

/**
 * The one rule for when a card expires, `from` being its issue or its last load:
 * the same calendar day `months` later in the business's time zone (clamped to
 * that month's last day: 31 January + 1 month is 28 or 29 February), and the
 * card is usable until the end of that local day. The answer is the last
 * millisecond of that day; the card expires once now is at or past it.
 */
export function cardExpiresAt(policy: ExpiryPolicy, from: Date, timeZone: string): Date | null {
  if (policy.kind === 'never') return null;
  const [y, m, d] = dayIn(timeZone, from).split('-').map(Number);
  const monthIndex = m - 1 + policy.months;
  const lastDay = new Date(Date.UTC(y, monthIndex + 1, 0)).getUTCDate();
  return endOfLocalDay(new Date(Date.UTC(y, monthIndex, Math.min(d, lastDay))).toISOString().slice(0, 10), timeZone);
}

/** The last millisecond of a calendar day (YYYY-MM-DD) in the zone: when a card expiring that day stops. */
export function endOfLocalDay(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const nextDay = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  return new Date(zonedDayStart(nextDay, timeZone).getTime() - 1);
}
