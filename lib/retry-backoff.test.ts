import { describe, expect, it } from 'vitest';
import { backoffMs, retryDelayMs } from './retry-backoff';

describe('the one backoff', () => {
  it('doubles from the base and stops at the cap, however many tries', () => {
    const env = { CHAPA_RETRY_BASE_MS: '100', CHAPA_RETRY_MAX_MS: '1000' };
    expect([1, 2, 3, 4, 5, 6, 50, 10_000].map((n) => retryDelayMs(n, env))).toEqual([100, 200, 400, 800, 1000, 1000, 1000, 1000]);
    expect(retryDelayMs(Number.MAX_SAFE_INTEGER)).toBe(600_000);
    expect(backoffMs(4)).toBe(retryDelayMs(4));
  });

  it('follows a schedule where one is given (webhook deliveries), its last step repeating', () => {
    const schedule = [5_000, 300_000, 1_800_000];
    expect([1, 2, 3, 4, 99].map((n) => backoffMs(n, schedule))).toEqual([5_000, 300_000, 1_800_000, 1_800_000, 1_800_000]);
  });
});
