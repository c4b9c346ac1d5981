import { describe, expect, it } from 'vitest';
import { matchBank, readBanks } from './chapa-banks';
import { retryDelayMs } from '../../retry-backoff';
import { readVerifiedTransfer, transferState } from './transfers';

describe('mapping our bank slugs to Chapa’s GET /banks', () => {
  const banks = readBanks({
    data: [
      { id: 946, slug: 'cbe', name: 'Commercial Bank of Ethiopia (CBE)', acct_length: 13, currency: 'ETB' },
      { id: '656', name: 'AWASH BANK', acct_length: '14', currency: 'ETB' },
      { id: 855, slug: 'TeleBirr', name: 'telebirr', acct_length: null, currency: 'ETB' },
      { id: 700, slug: 'dashen', name: 'Dashen Bank', currency: 'USD' },
      { name: 'no id' },
      'junk',
    ],
  });

  it('reads ids and lengths given as numbers or text, and skips entries without an id or a name', () => {
    expect(banks.map((b) => [b.code, b.accountLength])).toEqual([
      ['946', 13],
      ['656', 14],
      ['855', null],
      ['700', null],
    ]);
  });

  it('matches by Chapa’s slug, then by our bank’s name, case-insensitive, in the payout’s currency', () => {
    expect(matchBank(banks, 'cbe', 'ETB')?.code).toBe('946');
    expect(matchBank(banks, 'awash', 'ETB')?.code).toBe('656');
    expect(matchBank(banks, 'telebirr', 'ETB')?.code).toBe('855');
    expect(matchBank(banks, 'dashen', 'ETB')).toBeUndefined();
    expect(matchBank(banks, 'dashen', 'USD')?.code).toBe('700');
    expect(matchBank(banks, 'boa', 'ETB')).toBeUndefined();
  });
});

describe('retry backoff', () => {
  it('retries within a minute first, then doubles to at most ten minutes', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 50].map((n) => retryDelayMs(n, {}));
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 600_000, 600_000, 600_000]);
    expect(retryDelayMs(1, { CHAPA_RETRY_BASE_MS: '300', CHAPA_RETRY_MAX_MS: '1200' })).toBe(300);
    expect(retryDelayMs(9, { CHAPA_RETRY_BASE_MS: '300', CHAPA_RETRY_MAX_MS: '1200' })).toBe(1200);
    expect(retryDelayMs(1, { CHAPA_RETRY_BASE_MS: 'nonsense' })).toBe(30_000);
  });
});

describe('reading verify transfer', () => {
  it('knows Chapa’s status words and refuses to guess at others', () => {
    expect(['success', 'Successful', 'failed', 'failed/cancelled', 'reverted', 'pending', 'queued', 'weird'].map(transferState)).toEqual([
      'success',
      'success',
      'failed',
      'failed',
      'failed',
      'pending',
      'pending',
      null,
    ]);
  });

  it('reads amounts as numbers or text, and an answer for another reference is unreadable', () => {
    expect(readVerifiedTransfer({ data: { status: 'success', amount: '12.50', currency: 'etb', tx_ref: 'bnk_1' } }, 'bnk_1')).toMatchObject({
      kind: 'found',
      state: 'success',
      amount: 1250,
      currency: 'ETB',
    });
    expect(readVerifiedTransfer({ data: { status: 'success', amount: 12.5, tx_ref: 'bnk_2' } }, 'bnk_1')).toMatchObject({ kind: 'unreadable' });
    expect(readVerifiedTransfer({ data: { status: 'mystery', amount: 1 } }, 'bnk_1')).toMatchObject({ kind: 'unreadable' });
    expect(readVerifiedTransfer({ message: 'no data' }, 'bnk_1')).toMatchObject({ kind: 'unreadable' });
  });
});
