import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messageText } from '../messages/message-text';
import { codeMatches, MASKED_SPEND_CODE, newCodeSalt, spendCode } from './spend-code';

describe('spend codes', () => {
  const saved = process.env.AUTH_SECRET;
  beforeEach(() => {
    process.env.AUTH_SECRET = 'unit-secret-unit-secret-unit-secret';
  });
  afterEach(() => {
    process.env.AUTH_SECRET = saved;
  });

  it('test mode’s code is always 000000; live mode’s is six digits derived from the salt and the secret', () => {
    const salt = newCodeSalt();
    expect(spendCode('test', salt)).toBe('000000');
    const code = spendCode('live', salt);
    expect(code).toMatch(/^\d{6}$/);
    expect(spendCode('live', salt)).toBe(code);
    process.env.AUTH_SECRET = 'another-secret-another-secret-xx';
    expect(spendCode('live', salt)).not.toBe(code);
  });

  it('salts spread the codes (no fixed or repeating code)', () => {
    const codes = new Set(Array.from({ length: 2_000 }, () => spendCode('live', newCodeSalt())));
    // 2,000 draws from a million: a handful of repeats at most.
    expect(codes.size).toBeGreaterThan(1_990);
  });

  it('matches only the whole code', () => {
    const salt = newCodeSalt();
    const code = spendCode('live', salt);
    expect(codeMatches('live', salt, code)).toBe(true);
    expect(codeMatches('live', salt, code.slice(0, 5))).toBe(false);
    expect(codeMatches('live', salt, `${code}0`)).toBe(false);
    expect(codeMatches('live', salt, String((Number(code) + 1) % 1_000_000).padStart(6, '0'))).toBe(false);
    expect(codeMatches('test', salt, '000000')).toBe(true);
  });

  it('the stored text of a code message holds the mask, never the code', () => {
    const text = messageText('spend_code', {
      business: 'Merkato',
      locale: 'am',
      calendar: 'ethiopic',
      timeZone: 'Africa/Addis_Ababa',
      currency: 'ETB',
      last4: '1138',
      amount: 250_000,
      code: MASKED_SPEND_CODE,
    });
    expect(text).toContain('******');
    expect(text).not.toMatch(/\d{6}/);
  });
});
