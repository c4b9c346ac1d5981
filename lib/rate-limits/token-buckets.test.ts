import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './token-buckets';

describe('TokenBuckets.giveBack', () => {
  it('returns one spent token, never past the burst, and leaves an unknown key alone', () => {
    const buckets = new TokenBuckets({ perSecond: 1 / 60, burst: 2 });
    const now = 1_000_000;
    expect(buckets.take('a', now).ok).toBe(true);
    expect(buckets.take('a', now).ok).toBe(true);
    expect(buckets.take('a', now).ok).toBe(false);
    buckets.giveBack('a', now);
    expect(buckets.take('a', now).ok).toBe(true);
    expect(buckets.take('a', now).ok).toBe(false);
    for (let i = 0; i < 5; i++) buckets.giveBack('a', now);
    expect(buckets.take('a', now).ok).toBe(true);
    expect(buckets.take('a', now).ok).toBe(true);
    expect(buckets.take('a', now).ok).toBe(false);
    buckets.giveBack('b', now);
    expect(buckets.take('b', now).ok).toBe(true);
  });
});
