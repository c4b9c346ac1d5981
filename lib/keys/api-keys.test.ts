import { describe, expect, it } from 'vitest';
import { randomBase62 } from '../ids';
import { hashApiKey } from './api-keys';

describe('API keys', () => {
  it('hash to a stable SHA-256 that does not contain the key', () => {
    const key = `sk_test_${randomBase62(32)}`;
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).not.toContain(key.slice(8));
    const altered = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;
    expect(hashApiKey(key)).not.toBe(hashApiKey(altered));
  });

  it('draw from base62 only', () => {
    expect(randomBase62(2000)).toMatch(/^[0-9A-Za-z]{2000}$/);
  });

  it('draw every character about equally often and never repeat an identifier, across many refills of the byte pool', () => {
    const ids = Array.from({ length: 20_000 }, () => randomBase62(24));
    expect(new Set(ids).size).toBe(ids.length);
    const counts = new Map<string, number>();
    for (const c of ids.join('')) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (20_000 * 24) / 62;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.05);
  });
});
