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
  let liveSource: string;
  beforeAll(async () => {
    ({
      biz,
      card: { card_number: source },
    } = await businessWithCard(50_000));
    liveSource = (await createCard(biz.live)).card_number;
  });
  const bankPayout = (account_number: string, bank_slug = 'cbe') =>
    biz.test.post('/api/v1/card/payouts', { card_number: source, amount: 1_000, bank_slug, account_number, account_name: 'Abebe Kebede' });
  const livePayout = (account_number: string, bank_slug = 'cbe') =>
    biz.live.post('/api/v1/card/payouts', { card_number: liveSource, amount: 100, bank_slug, account_number, account_name: 'Abebe Kebede' });

  /** Everything a payout writes for the business: ledger transactions and entries, payouts, events. */
  const footprint = async () =>
    (
      await testDb().execute<{ transactions: string; entries: string; payouts: string; events: string }>(sql`
        SELECT (SELECT count(*) FROM ledger_transactions WHERE business_id = ${biz.id}) AS transactions,
               (SELECT count(*) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.business_id = ${biz.id}) AS entries,
               (SELECT count(*) FROM payouts WHERE business_id = ${biz.id}) AS payouts,
               (SELECT count(*) FROM webhook_events WHERE business_id = ${biz.id}) AS events`)
    ).rows[0];

  it('refuses abc!@# and a 12-digit CBE account with live’s code and words, and changes nothing', async () => {
    const before = await footprint();
    for (const account of ['abc!@#', '100012345678']) {
      const test = await bankPayout(account);
      expect(test.status, `${account}: ${JSON.stringify(test.body)}`).toBe(400);
      expect(test.body).toMatchObject({
        status: 'error',
        message: 'Payout request failed',
        error: 'Commercial Bank of Ethiopia account numbers have 13 digits.',
      });
      const live = await livePayout(account);
      expect({ status: live.status, message: live.body.message, error: live.body.error }).toEqual({
        status: test.status,
        message: test.body.message,
        error: test.body.error,
      });
    }
    expect(await cardBalance(biz.test, source)).toBe(50_000);
    expect(await footprint()).toEqual(before);
  });

  it('refuses other malformed or short accounts and wallet numbers the same way, in both modes, moving nothing', async () => {
    const before = await footprint();
    for (const [account, slug, words] of [
      ['12345', 'cbe', 'Commercial Bank of Ethiopia account numbers have 13 digits.'],
      ['100012345678x', 'cbe', 'Commercial Bank of Ethiopia account numbers have 13 digits.'],
      ['1000123456789', 'awash', 'Awash Bank account numbers have 14 digits.'],
      ['10001234-567', 'cac', 'CAC International Bank account numbers are digits only.'],
      ['251911000000', 'telebirr', 'telebirr account numbers have 10 digits.'],
      ['+251911000', 'telebirr', 'telebirr account numbers have 10 digits.'],
      ['abcdefghij', 'telebirr', 'telebirr account numbers have 10 digits.'],
      ['091100000', 'mpesa', 'M-PESA Ethiopia account numbers have 10 digits.'],
    ]) {
      const res = slug === 'cac' ? await usdPayout(account) : await bankPayout(account, slug);
      expect(res.status, `${slug} ${account}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', message: 'Payout request failed', error: words });
      if (slug !== 'cac')
        expect((await livePayout(account, slug)).body, `live ${slug} ${account}`).toMatchObject({ message: 'Payout request failed', error: words });
    }
    expect(await cardBalance(biz.test, source)).toBe(50_000);
    expect(await footprint()).toEqual(before);
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

  it('takes a 10-digit telebirr number', async () => {
    const res = await bankPayout('0911234567', 'telebirr');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
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
