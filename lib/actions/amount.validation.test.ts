import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT } from '../validation';
import { groupedUnitsText } from '../money-text';
import { amountText, majorAmountText } from './amount.validation';
import { parseAmountText, toMinorUnits } from '../amount-text';

const minor = (typed: string) => amountText.safeParse(typed);
const message = (typed: string) => {
  const r = amountText.safeParse(typed);
  return r.success ? undefined : r.error.issues[0].message;
};

describe('amounts as people type them', () => {
  it.each([
    ['25', 2500],
    ['25.5', 2550],
    ['25.50', 2550],
    ['1,000', 100_000],
    ['1 000', 100_000],
    ['1\u00a0000', 100_000],
    ['1000.50', 100_050],
    ['1,000,000.05', 100_000_005],
    [' 12 345 678 ', 1_234_567_800],
    ['0001.00', 100],
    ['100,000,000', 10_000_000_000],
  ])('%j is %i minor units', (typed, expected) => {
    expect(minor(typed)).toEqual({ success: true, data: expected });
  });

  it('refuses more than two decimals with that reason', () => {
    expect(message('25.505')).toBe('Use at most two decimals.');
    expect(message('1,000.001')).toBe('Use at most two decimals.');
  });

  it('gives the real limit, in currency units, for a too large amount', () => {
    expect(groupedUnitsText(MAX_AMOUNT)).toBe('10,000,000,000.00');
    expect(message('10,000,000,000.01')).toBe('The most one amount can be is 10,000,000,000.00.');
    expect(message('99999999999999999999')).toBe('The most one amount can be is 10,000,000,000.00.');
    expect(minor('10,000,000,000')).toEqual({ success: true, data: MAX_AMOUNT });
  });

  it('says the smallest amount in currency units, never in minor units', () => {
    expect(message('0.99')).toBe('The smallest amount is 1.00.');
  });

  it('refuses ambiguous grouping and a decimal comma rather than guess', () => {
    expect(message('25,50')).toBe('Use a dot for the decimals, e.g. 25.50.');
    expect(message('1,00,000')).toBe('Enter an amount like 25, 1,000 or 25.50.');
    expect(message('1,000 000')).toBe('Enter an amount like 25, 1,000 or 25.50.');
    expect(message('-5')).toBe('Enter an amount like 25, 1,000 or 25.50.');
    expect(message('1e6')).toBe('Enter an amount like 25, 1,000 or 25.50.');
    expect(message('')).toBe('Enter an amount.');
  });

  it('hands the top-up form (majorAmountText) canonical text its action converts exactly', () => {
    expect(majorAmountText.parse('1,000.5')).toBe('1000.5');
    expect(toMinorUnits(majorAmountText.parse('1 234.56'))).toBe(123_456);
    expect(parseAmountText('7,000,000.10')).toEqual({ ok: true, text: '7000000.10' });
  });
});
