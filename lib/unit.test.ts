import { describe, expect, it } from 'vitest';
import { nationalNumberCandidates, normalisePhone } from './cards/phone';
import { ServiceError } from './errors';
import { computeFee, parsePercent } from './fees/fee-schedule';
import { isLuhnValid, luhnCheckDigit, newCardNumber, randomBase62 } from './ids';
import { hashApiKey } from './keys/api-keys';

describe('phone numbers', () => {
  it('normalises international numbers to E.164 with their national number', () => {
    expect(normalisePhone('+251911234567')).toEqual({ e164: '+251911234567', national: '911234567' });
    expect(normalisePhone(' +251 91 123 4567 ')).toEqual({ e164: '+251911234567', national: '911234567' });
    expect(normalisePhone('+1 202 555 0143').e164).toBe('+12025550143');
  });

  it.each(['0911234567', '911234567', '+2519', '+999123456789', 'not a phone', '+25191123456789012'])('refuses %s', (input) => {
    expect(() => normalisePhone(input)).toThrow(ServiceError);
    try {
      normalisePhone(input);
    } catch (err) {
      expect((err as ServiceError).code).toBe('invalid_phone_number');
    }
  });

  it('matches the list filter with or without the trunk 0', () => {
    expect(nationalNumberCandidates('0911234567')).toEqual(['0911234567', '911234567']);
    expect(nationalNumberCandidates('911234567')).toEqual(['911234567']);
    expect(nationalNumberCandidates("9' OR 1=1")).toEqual([]);
  });
});

describe('card numbers', () => {
  it('are 16 digits and Luhn-valid', () => {
    for (let i = 0; i < 500; i++) {
      const n = newCardNumber();
      expect(n).toMatch(/^[1-9]\d{15}$/);
      expect(isLuhnValid(n)).toBe(true);
    }
  });

  it('computes known check digits', () => {
    expect(luhnCheckDigit('7992739871')).toBe(3);
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('79927398714')).toBe(false);
  });
});

describe('API keys', () => {
  it('hash to a stable SHA-256 that does not contain the key', () => {
    const key = `sk_test_${randomBase62(32)}`;
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).not.toContain(key.slice(8));
    expect(hashApiKey(key)).not.toBe(hashApiKey(`${key.slice(0, -1)}x`));
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
