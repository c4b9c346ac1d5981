import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors';
import { maskPhone, nationalNumberCandidates, normalisePhone, normaliseTypedPhone } from './phone';

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

  it.each([
    ['0911234567', '+251911234567'],
    ['0911 234 567', '+251911234567'],
    ['911234567', '+251911234567'],
    ['0711 234 567', '+251711234567'],
    ['+251 911 234 567', '+251911234567'],
    ['251911234567', '+251911234567'],
    ['251 911 234 567', '+251911234567'],
    ['(091) 123-4567', '+251911234567'],
    ['+1 202 555 0143', '+12025550143'],
  ])('reads the dashboard number %s as %s in Ethiopia', (typed, e164) => {
    expect(normaliseTypedPhone(typed, 'ET').e164).toBe(e164);
  });

  it('reads national numbers as the business country, Ethiopia when it has none', () => {
    expect(normaliseTypedPhone('0911234567').e164).toBe('+251911234567');
    expect(normaliseTypedPhone('(202) 555-0143', 'US').e164).toBe('+12025550143');
    expect(() => normaliseTypedPhone('0911234567', 'US')).toThrow(ServiceError);
  });

  it.each(['0911', '12345', '+2519', 'call me', '0911234567; DROP', ''])('refuses the dashboard number %j', (typed) => {
    expect(() => normaliseTypedPhone(typed, 'ET')).toThrow(expect.objectContaining({ code: 'invalid_phone_number' }));
  });

  it('masks a number for audit lines: its country code and first digit, and its last two', () => {
    expect(maskPhone('+251911234567')).toBe('+2519••••••67');
    expect(maskPhone('+12025550143')).toBe('+1202•••••43');
    // Never a run of nine digits, which the logs would take for a full number.
    expect(maskPhone('+251911234567')).not.toMatch(/\d{9}/);
  });
});
