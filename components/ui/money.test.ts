import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';

const plain = (s: string) => s.replace(/\s/g, ' ');

describe('formatMoney', () => {
  it('prints minor units as currency units, to the cent, however large', () => {
    expect(plain(formatMoney(10_160, 'ETB'))).toBe('ETB 101.60');
    expect(plain(formatMoney(5, 'UGX'))).toBe('UGX 0.05');
    expect(formatMoney(-150, 'USD')).toBe('-$1.50');
    // 2^53 - 1 minor units: dividing by 100 as a float would round the cents away.
    expect(plain(formatMoney(9_007_199_254_740_991, 'ETB'))).toBe('ETB 90,071,992,547,409.91');
    expect(plain(formatMoney(1_000_000_000_000_001, 'DJF'))).toBe('DJF 10,000,000,000,000.01');
  });
});
