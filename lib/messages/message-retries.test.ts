import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../retry-backoff';

describe('a message refused for a while (5xx, 429, a timeout)', () => {
  it('is tried again within a minute, and a second time within three', () => {
    const env = {};
    expect(retryDelayMs(1, env)).toBeLessThanOrEqual(60_000);
    expect(retryDelayMs(1, env) + retryDelayMs(2, env)).toBeLessThanOrEqual(180_000);
    expect(retryDelayMs(50, env)).toBe(600_000);
  });
});
