import { describe, expect, it } from 'vitest';
import { answerMessage, parseMinorUnits, readVerifiedTransaction, toMajorUnits } from './chapa-answers';

describe('parseMinorUnits', () => {
  it('reads amounts as numbers or strings into exact minor units', () => {
    expect(parseMinorUnits('100')).toBe(10000);
    expect(parseMinorUnits('100.5')).toBe(10050);
    expect(parseMinorUnits('100.50')).toBe(10050);
    expect(parseMinorUnits(100.25)).toBe(10025);
    expect(parseMinorUnits(19.99)).toBe(1999);
    expect(parseMinorUnits('1,234.56')).toBe(123456);
    expect(parseMinorUnits(' 7.00 ')).toBe(700);
    expect(parseMinorUnits('10.500')).toBe(1050);
  });

  it('refuses what is not an exact cent amount instead of rounding it', () => {
    for (const v of ['10.505', '-1', '', 'abc', '1e3', null, undefined, {}, Number.NaN, -5, Number.POSITIVE_INFINITY, '12.3.4', 1e21]) {
      expect(parseMinorUnits(v)).toBeNull();
    }
  });

  it('never goes through floating point: 1.15 and 4.35 stay exact', () => {
    expect(parseMinorUnits(1.15)).toBe(115);
    expect(parseMinorUnits(4.35)).toBe(435);
    expect(parseMinorUnits('9007199254740.99')).toBe(900719925474099);
  });

  it('writes minor units as Chapa expects', () => {
    expect(toMajorUnits(10050)).toBe('100.50');
    expect(toMajorUnits(5)).toBe('0.05');
    expect(() => toMajorUnits(1.5)).toThrow();
  });
});

describe('readVerifiedTransaction', () => {
  const body = (data: Record<string, unknown>) => ({ message: 'Payment details', status: 'success', data });

  it('reads a success with the amount as a number or a string, with or without a top-level status', () => {
    const a = readVerifiedTransaction(body({ status: 'success', tx_ref: 'pay_1', amount: 102.5, currency: 'ETB', reference: 'AP1', mode: 'test' }));
    expect(a).toMatchObject({ state: 'success', amount: 10250, currency: 'ETB', chapaReference: 'AP1', mode: 'test' });
    const b = readVerifiedTransaction({ data: { status: 'Success', tx_ref: 'pay_1', amount: '102.50', currency: 'etb' } });
    expect(b).toMatchObject({ state: 'success', amount: 10250, currency: 'ETB' });
  });

  it('is strict where money depends on it: missing or odd fields are unreadable, never success', () => {
    expect(readVerifiedTransaction(body({ status: 'success', tx_ref: 'pay_1', currency: 'ETB' })).state).toBe('unreadable');
    expect(readVerifiedTransaction(body({ status: 'success', tx_ref: 'pay_1', amount: '10.001', currency: 'ETB' })).state).toBe('unreadable');
    expect(readVerifiedTransaction(body({ status: 'success', amount: '10', currency: 'ETB' })).state).toBe('unreadable');
    expect(readVerifiedTransaction(body({ status: 'paid?', tx_ref: 'pay_1', amount: '10', currency: 'ETB' })).state).toBe('unreadable');
    expect(readVerifiedTransaction(body({ status: 'success', tx_ref: 'pay_1', amount: '10' })).state).toBe('unreadable');
    expect(readVerifiedTransaction({ status: 'success', data: null }).state).toBe('unreadable');
  });

  it('knows failed and pending', () => {
    expect(readVerifiedTransaction(body({ status: 'failed', tx_ref: 'pay_1', amount: '1', currency: 'ETB' })).state).toBe('failed');
    expect(readVerifiedTransaction(body({ status: 'pending', tx_ref: 'pay_1', amount: '1', currency: 'ETB' })).state).toBe('pending');
  });
});

describe('answerMessage', () => {
  it('flattens field errors', () => {
    expect(answerMessage({ message: { amount: ['The amount must be a number.'] } })).toBe('amount: The amount must be a number.');
    expect(answerMessage({ message: 'Invalid API Key' })).toBe('Invalid API Key');
    expect(answerMessage({})).toBeNull();
  });
});
