import { describe, expect, it } from 'vitest';
import { isLuhnValid, luhnCheckDigit, newCardNumber } from './ids';

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
