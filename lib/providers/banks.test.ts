import { describe, expect, it } from 'vitest';
import { FAKE_BANKS } from '../../tools/chapa-fake/transfers';
import { accountLengthOf, accountNumberRefusal, BANKS, findBank } from './banks';
import { matchBank, readBanks } from '../rails/chapa/chapa-banks';

const refusal = (slug: string, account: string, length = accountLengthOf(slug)) => {
  const err = accountNumberRefusal(findBank(slug)!, length, account);
  return err && { code: err.code, field: err.field, detail: err.detail };
};

describe('the bank account rule (test and live alike)', () => {
  it('takes digits of the bank’s length, and refuses anything else in the same words', () => {
    expect(refusal('cbe', '1000123456789')).toBeUndefined();
    expect(refusal('cbe', '1000123450000')).toBeUndefined();
    const cbe = { code: 'payout_request_failed', field: 'account_number', detail: 'Commercial Bank of Ethiopia account numbers have 13 digits.' };
    for (const account of ['abc!@#', '12345', '10001234567890', '100012345678x', '1000 123456789', '１０００１２３４５６７８９']) {
      expect(refusal('cbe', account), account).toEqual(cbe);
    }
    expect(refusal('awash', '10001234567890')).toBeUndefined();
    expect(refusal('boa', '12345678')).toBeUndefined();
  });

  it('holds a bank without a known length to digits only, and a wallet only to a length its list gives', () => {
    expect(refusal('cac', '123')).toBeUndefined();
    expect(refusal('cac', '12-3')?.detail).toBe('CAC International Bank account numbers are digits only.');
    expect(refusal('telebirr', '0911000000')).toBeUndefined();
    expect(refusal('waafi', '+25377000000')).toBeUndefined();
    // Ten characters but not ten digits: the words say digits, and so does the rule.
    for (const account of ['091100000', '+251911000000', '251911000000', '+251911000', 'abcdefghij', '0911 00000']) {
      expect(refusal('telebirr', account)?.detail, account).toBe('telebirr account numbers have 10 digits.');
    }
  });

  it('gives each bank and wallet the length Chapa’s list (the fake’s copy of it) gives, and none to one Chapa does not list', () => {
    const chapa = readBanks({ data: FAKE_BANKS });
    for (const bank of BANKS) {
      const listed = matchBank(chapa, bank.slug, bank.currencies[0]);
      // Bank of Abyssinia is left out of the fake on purpose (Invalid bank slug); Chapa lists it with 8 digits.
      if (bank.slug === 'boa') expect(accountLengthOf('boa')).toBe(8);
      else expect(accountLengthOf(bank.slug), bank.slug).toBe(listed?.accountLength ?? null);
    }
  });
});
