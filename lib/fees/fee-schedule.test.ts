import { describe, expect, it } from 'vitest';
import { computeFee, parsePercent } from './fee-schedule';

describe('fees', () => {
  const rule = (percent: string, fixed = 0, min: number | null = null, max: number | null = null) => ({
    percentScaled: parsePercent(percent)!,
    fixed,
    min,
    max,
  });
  it.each([
    ['0', 0, 10_000, 0],
    ['1.5', 0, 10_000, 150],
    ['1.5', 0, 33, 0], // 0.495 rounds down
    ['1.5', 0, 34, 1], // 0.51 rounds up
    ['2.5', 0, 20, 1], // exactly 0.5 rounds half up
    ['2', 100, 1_000, 120],
    ['0.0001', 0, 1_000_000_000_000, 1_000_000],
    ['100', 0, 1_000_000_000_000, 1_000_000_000_000],
  ])('percent %s fixed %i on %i is %i', (percent, fixed, amount, fee) => {
    expect(computeFee(rule(percent, fixed), amount)).toBe(fee);
  });

  it('clamps to min and max', () => {
    expect(computeFee(rule('1', 0, 50, 500), 100)).toBe(50);
    expect(computeFee(rule('1', 0, 50, 500), 1_000_000)).toBe(500);
    expect(computeFee(undefined, 1_000)).toBe(0);
  });

  it('parses percents exactly and refuses the rest', () => {
    expect(parsePercent(1.5)).toBe(15_000);
    expect(parsePercent('0.1234')).toBe(1_234);
    expect(parsePercent(100)).toBe(1_000_000);
    expect(parsePercent(100.5)).toBeNull();
    expect(parsePercent(-1)).toBeNull();
    expect(parsePercent('1e-7')).toBeNull();
    expect(parsePercent(0.12345)).toBeNull();
  });
});
