import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCard, testDb, type TestBusiness, waitFor } from '../helpers';
import { businessWithCard, cardBalance } from './payouts-fixtures';

/**
 * Test mode refuses the bank accounts live refuses (lib/providers/banks.ts,
 * accountNumberRefusal): digits only, of the length Chapa lists for the bank,
 * with live's code and words, before anything is debited.
 */
describe('test-mode bank accounts', () => {
  let biz: TestBusiness;
  let source: string;
  beforeAll(async () => {
    ({
      biz,
      card: { card_number: source },
    } = await businessWithCard(50_000));
  });
  const bankPayout = (account_number: string, bank_slug = 'cbe') =>
    biz.test.post('/api/v1/card/payouts', { card_number: source, amount: 1_000, bank_slug, account_number, account_name: 'Abebe Kebede' });
  const payoutRows = async () =>
    Number((await testDb().execute<{ n: string }>(sql`SELECT count(*) AS n FROM payouts WHERE source_card_number = ${source}`)).rows[0].n);

  it('refuses a malformed or short account with 400 Payout request failed in live’s words, moving nothing', async () => {
    const rowsBefore = await payoutRows();
    for (const [account, slug, words] of [
      ['abc!@#', 'cbe', 'Commercial Bank of Ethiopia account numbers have 13 digits.'],
      ['12345', 'cbe', 'Commercial Bank of Ethiopia account numbers have 13 digits.'],
      ['100012345678x', 'cbe', 'Commercial Bank of Ethiopia account numbers have 13 digits.'],
      ['1000123456789', 'awash', 'Awash Bank account numbers have 14 digits.'],
      ['10001234-567', 'cac', 'CAC International Bank account numbers are digits only.'],
      ['251911000000', 'telebirr', 'telebirr account numbers have 10 digits.'],
      ['091100000', 'mpesa', 'M-PESA Ethiopia account numbers have 10 digits.'],
    ]) {
      const res = slug === 'cac' ? await usdPayout(account) : await bankPayout(account, slug);
      expect(res.status, `${slug} ${account}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', message: 'Payout request failed', error: words });
    }
    expect(await cardBalance(biz.test, source)).toBe(50_000);
    expect(await payoutRows()).toBe(rowsBefore);
  });

  it('is refused the same way in live mode, before live’s missing rail is reached', async () => {
    const live = await createCard(biz.live);
    const res = await biz.live.post('/api/v1/card/payouts', {
      card_number: live.card_number,
      amount: 100,
      bank_slug: 'cbe',
      account_number: 'abc!@#',
      account_name: 'A',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ message: 'Payout request failed', error: 'Commercial Bank of Ethiopia account numbers have 13 digits.' });
  });

  it('takes a 13-digit CBE account, and fails one ending in 0000 as the sandbox’s rule says', async () => {
    const before = await cardBalance(biz.test, source);
    const good = await bankPayout('1000123456789');
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    const bad = await bankPayout('1000123450000');
    expect(bad.status, JSON.stringify(bad.body)).toBe(200);
    expect(await cardBalance(biz.test, source)).toBe(before - 2_000);
    for (const [ref, outcome] of [
      [good.body.data.provider_reference, 'success'],
      [bad.body.data.provider_reference, 'failed'],
    ]) {
      await testDb().execute(sql`UPDATE payouts SET settle_after = now() WHERE reference = ${ref}`);
      await waitFor(async () => ((await biz.test.get(`/api/v1/card/payout/${ref}/status`)).body.data.status === outcome ? true : undefined));
    }
    expect(await cardBalance(biz.test, source)).toBe(before - 1_000);
  });

  it('refuses the same account in a batch item, as the single call does', async () => {
    const res = await biz.test.post('/api/v1/card/payouts/batch', {
      payouts: [
        { card_number: source, amount: 100, bank_slug: 'dashen', account_number: '123', account_name: 'A' },
        { card_number: source, amount: 100, bank_slug: 'dashen', account_number: '1000123456789', account_name: 'A' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [refused, made] = res.body.data.results;
    expect(refused).toMatchObject({ status: 'error', message: 'Payout request failed', error: 'Dashen Bank account numbers have 13 digits.' });
    expect(made).toMatchObject({ status: 'PENDING' });
  });

  /** CAC takes DJF and USD only: a funded USD card (of another business). */
  async function usdPayout(account_number: string) {
    const { biz: b, card } = await businessWithCard(5_000, 'USD');
    return b.test.post('/api/v1/card/payouts', { card_number: card.card_number, amount: 1_000, bank_slug: 'cac', account_number, account_name: 'A' });
  }
});
