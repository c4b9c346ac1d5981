import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { toPaymentItems, toPayoutItems } from '../components/payouts-list/list-items';
import { merchantNames, paymentsListPage, payoutsListPage } from '../lib/dashboard/history-lists';
import { createCard, randomPhone, testDb, waitFor } from './helpers';
import { businessWithCard, fundBusiness } from './api/payouts-fixtures';

process.env.DATABASE_URL = inject('databaseUrl');

const reasonOf = async (table: 'payouts' | 'payments', ref: string) => {
  const { rows } = await testDb().execute<{ status: string; failure_reason: string | null }>(
    table === 'payouts'
      ? sql`SELECT status, failure_reason FROM payouts WHERE reference = ${ref}`
      : sql`SELECT status, failure_reason FROM payments WHERE link_reference = ${ref}`,
  );
  return rows[0];
};

/** Makes a pending payout or payment due now, so the server's sandbox worker settles it, and waits for the outcome. */
async function settledByWorker(table: 'payouts' | 'payments', ref: string) {
  if (table === 'payouts') await testDb().execute(sql`UPDATE payouts SET settle_after = now() WHERE reference = ${ref}`);
  else await testDb().execute(sql`UPDATE payments SET settle_after = now() WHERE link_reference = ${ref}`);
  return waitFor(async () => {
    const row = await reasonOf(table, ref);
    return row.status !== 'pending' ? row : undefined;
  });
}

describe('failure reasons', () => {
  it('a bank account ending 0000 fails with the bank named; the API answer does not carry the reason', async () => {
    const { biz, card } = await businessWithCard(20_000);
    const res = await biz.test.post('/api/v1/card/payouts', {
      card_number: card.card_number,
      amount: 5_000,
      bank_slug: 'cbe',
      account_number: '1000123450000',
      account_name: 'Fails',
    });
    expect(res.status).toBe(200);
    const ref = res.body.data.provider_reference as string;
    expect(await reasonOf('payouts', ref)).toEqual({ status: 'pending', failure_reason: null });
    expect(await settledByWorker('payouts', ref)).toEqual({ status: 'failed', failure_reason: 'Commercial Bank of Ethiopia refused the account number.' });
    const status = await biz.test.get(`/api/v1/card/payout/${ref}/status`);
    expect(status.body.data.status).toBe('failed');
    expect(JSON.stringify(status.body)).not.toMatch(/refused|failure/i);

    // The dashboard's list row says why, and names the bank rather than its slug.
    const { page, merchantNames: names } = await payoutsListPage(testDb(), {
      businessId: biz.id,
      mode: 'test',
      timeZone: 'Africa/Addis_Ababa',
      params: { status: 'failed' },
      limit: 25,
    });
    const row = toPayoutItems(page, names).rows.find((r) => r.reference === ref)!;
    expect(row).toMatchObject({
      status: 'failed',
      type: 'Bank or wallet',
      destination: 'Commercial Bank of Ethiopia · 1000123450000',
      failureReason: 'Commercial Bank of Ethiopia refused the account number.',
    });
  });

  it('a wallet account ending 0000 names the wallet; a successful payout has no reason', async () => {
    const { biz, card } = await businessWithCard(20_000);
    const bad = await biz.test.post('/api/v1/card/payouts', {
      card_number: card.card_number,
      amount: 1_000,
      bank_slug: 'telebirr',
      account_number: '0910000000',
      account_name: 'X',
    });
    const good = await biz.test.post('/api/v1/card/payouts', {
      card_number: card.card_number,
      amount: 1_000,
      bank_slug: 'awash',
      account_number: '10001234512345',
      account_name: 'Y',
    });
    expect(await settledByWorker('payouts', bad.body.data.provider_reference)).toEqual({
      status: 'failed',
      failure_reason: 'telebirr refused the wallet account number.',
    });
    expect(await settledByWorker('payouts', good.body.data.provider_reference)).toEqual({ status: 'success', failure_reason: null });
  });

  it('a failure reported through the test helper says the provider reported it', async () => {
    const { biz, card } = await businessWithCard(20_000);
    const res = await biz.test.post('/api/v1/card/payouts', {
      card_number: card.card_number,
      amount: 1_000,
      bank_slug: 'dashen',
      account_number: '1234567812345',
      account_name: 'Z',
    });
    const ref = res.body.data.provider_reference as string;
    const settled = await biz.test.post(`/api/v1/test-helpers/payouts/${ref}/settle`, { status: 'failed' });
    expect(settled.body.data.status).toBe('failed');
    expect(JSON.stringify(settled.body)).not.toMatch(/reported/);
    expect(await reasonOf('payouts', ref)).toEqual({ status: 'failed', failure_reason: 'The payment provider reported that the payout failed.' });
  });

  it('a top-up whose card was cancelled before it settled says so', async () => {
    const { biz, card } = await businessWithCard(0);
    await fundBusiness(biz, 'test', 'ETB', 3_000);
    const t = await biz.test.post('/api/v1/transfers', { amount: 3_000, bank_slug: 'link', account_number: card.card_number, account_name: 'Top-up' });
    const ref = t.body.data.provider_reference as string;
    expect((await biz.test.delete(`/api/v1/card/${card.card_number}`)).status).toBe(200);
    await biz.test.post(`/api/v1/test-helpers/payouts/${ref}/settle`, { status: 'success' });
    expect(await reasonOf('payouts', ref)).toEqual({
      status: 'failed',
      failure_reason: 'The destination card was cancelled before the top-up settled; the money went back to the business balance.',
    });
  });

  it('a wallet that declines a direct charge, and checkout failures and cancellations, each say why', async () => {
    const { biz, card } = await businessWithCard(0);
    const declining = `+2519${String(Date.now()).slice(-4)}0000`;
    const charge = await biz.test.post('/api/v1/card/payments', {
      type: 'direct-charge',
      card_number: card.card_number,
      amount: 2_500,
      phone_number: declining,
      payment_method: 'telebirr',
    });
    expect(charge.status, JSON.stringify(charge.body)).toBe(201);
    const chargeRef = charge.body.data.link_reference as string;
    expect(await settledByWorker('payments', chargeRef)).toEqual({ status: 'failed', failure_reason: "The customer's wallet declined the charge." });

    const approving = await biz.test.post('/api/v1/card/payments', {
      type: 'direct-charge',
      card_number: card.card_number,
      amount: 1_000,
      phone_number: randomPhone(),
      payment_method: 'telebirr',
    });
    expect(await settledByWorker('payments', approving.body.data.link_reference)).toEqual({ status: 'success', failure_reason: null });

    const hosted = async (status: 'failed' | 'cancelled') => {
      const p = await biz.test.post('/api/v1/card/payments', { type: 'hosted', card_number: card.card_number, amount: 1_000 });
      const ref = p.body.data.link_reference as string;
      const done = await biz.test.post(`/api/v1/test-helpers/payments/${ref}/complete`, { status });
      expect(JSON.stringify(done.body)).not.toMatch(/checkout\./);
      return reasonOf('payments', ref);
    };
    expect(await hosted('failed')).toEqual({ status: 'failed', failure_reason: "The customer's payment did not go through at checkout." });
    expect(await hosted('cancelled')).toEqual({ status: 'cancelled', failure_reason: 'The customer cancelled the payment at checkout.' });

    const { page } = await paymentsListPage(testDb(), { businessId: biz.id, mode: 'test', timeZone: 'Africa/Addis_Ababa', params: {}, limit: 25 });
    const items = toPaymentItems(page).rows;
    expect(items.find((r) => r.reference === chargeRef)).toMatchObject({
      type: 'Wallet charge · telebirr',
      failureReason: "The customer's wallet declined the charge.",
    });
    expect(items.filter((r) => r.status === 'success').every((r) => r.failureReason === null)).toBe(true);
  });

  it('names the receiving business of a business-to-business payout, never its merchant id', async () => {
    const { biz } = await businessWithCard(0);
    const other = await createCard(biz.test);
    expect(other.card_number).toBeTruthy();
    expect(await merchantNames(testDb(), [biz.merchant_id, null, 'no-such-merchant'])).toEqual({ [biz.merchant_id]: biz.name });
  });
});
