import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { adminClient, apiClient, createCard, createTestBusiness, testDb, type TestBusiness } from '../helpers';
import { businessWithCard, cardBalance, fundCard, ledgerBalance } from './payouts-fixtures';

async function setLimits(biz: TestBusiness, limits: Record<string, unknown>) {
  const res = await adminClient().put(`/api/admin/businesses/${biz.id}/limits`, { mode: 'test', currency: 'ETB', ...limits });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const cardToCard = (biz: TestBusiness, from: string, to: string, amount: number) =>
  biz.test.post('/api/v1/card/payouts', { card_number: from, destination_card_number: to, amount });

const bankPayout = (biz: TestBusiness, from: string, amount: number, accountNumber = '1000123456123') =>
  biz.test.post('/api/v1/card/payouts', { card_number: from, amount, bank_slug: 'cbe', account_number: accountNumber, account_name: 'Abebe' });

async function dayTotal(biz: TestBusiness): Promise<number | undefined> {
  const r = await testDb().execute<{ total: number }>(
    sql`SELECT total FROM payout_day_totals WHERE business_id = ${biz.id} AND mode = 'test' AND currency = 'ETB'`,
  );
  return r.rows[0] === undefined ? undefined : Number(r.rows[0].total);
}

describe('PUT /api/admin/businesses/{id}/limits', () => {
  it('sets, reads and clears limits per mode and currency; live unless a mode is given', async () => {
    const biz = await createTestBusiness();
    const admin = adminClient();
    const live = await admin.put(`/api/admin/businesses/${biz.id}/limits`, { currency: 'USD', max_payout: 10_000, daily_payout: null });
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body.data).toEqual({ mode: 'live', currency: 'USD', max_payout: 10_000, daily_payout: null, max_card_balance: null, spend_code_over: null });
    const read = await admin.get(`/api/admin/businesses/${biz.id}/limits`);
    expect(read.body.data.mode).toBe('live');
    expect(read.body.data.limits).toContainEqual({ currency: 'USD', max_payout: 10_000, daily_payout: null, max_card_balance: null, spend_code_over: null });
    expect(read.body.data.limits).toContainEqual({ currency: 'ETB', max_payout: null, daily_payout: null, max_card_balance: null, spend_code_over: null });
    const test = await admin.get(`/api/admin/businesses/${biz.id}/limits?mode=test`);
    expect(test.body.data.limits.every((l: { max_payout: number | null }) => l.max_payout === null)).toBe(true);
    // PUT replaces the currency's set: what is left out is no limit.
    await admin.put(`/api/admin/businesses/${biz.id}/limits`, { currency: 'USD', mode: 'live' });
    const cleared = await admin.get(`/api/admin/businesses/${biz.id}/limits?mode=live`);
    expect(cleared.body.data.limits).toContainEqual({ currency: 'USD', max_payout: null, daily_payout: null, max_card_balance: null, spend_code_over: null });
  });

  it('refuses bad input with a validation error keyed by field, changing nothing', async () => {
    const biz = await createTestBusiness();
    const admin = adminClient();
    const cases: [Record<string, unknown>, string][] = [
      [{ currency: 'EUR', max_payout: 100 }, 'currency'],
      [{ currency: 'ETB', max_payout: 99 }, 'max_payout'],
      [{ currency: 'ETB', daily_payout: 100.5 }, 'daily_payout'],
      [{ currency: 'ETB', max_card_balance: '1000' }, 'max_card_balance'],
      [{ currency: 'ETB', max_card_balance: 10 ** 13 }, 'max_card_balance'],
      [{ currency: 'ETB', mode: 'prod' }, 'mode'],
    ];
    for (const [body, field] of cases) {
      const res = await admin.put(`/api/admin/businesses/${biz.id}/limits`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', message: 'Validation error' });
      expect(Object.keys(res.body.error)).toEqual([field]);
    }
    const raw = await fetch(`${inject('baseUrl')}/api/admin/businesses/${biz.id}/limits`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${inject('adminToken')}`, 'content-type': 'application/json' },
      body: '{"currency":',
    });
    expect(raw.status).toBe(400);
    expect(
      (await admin.get(`/api/admin/businesses/${biz.id}/limits?mode=live`)).body.data.limits.every((l: { max_payout: null }) => l.max_payout === null),
    ).toBe(true);
    expect((await apiClient('wrong').put(`/api/admin/businesses/${biz.id}/limits`, { currency: 'ETB' })).status).toBe(401);
    expect((await admin.put('/api/admin/businesses/999999999/limits', { currency: 'ETB' })).status).toBe(404);
  });
});

describe('limits on payouts', () => {
  it('max_payout: the limit itself passes, one minor unit more is refused and moves nothing', async () => {
    const { biz, card } = await businessWithCard(100_000);
    const to = await createCard(biz.test);
    await setLimits(biz, { max_payout: 5_000 });
    expect((await cardToCard(biz, card.card_number, to.card_number, 5_000)).status).toBe(200);
    const over = await cardToCard(biz, card.card_number, to.card_number, 5_001);
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ status: 'error', message: 'Limit exceeded', error: 'This payout exceeds the maximum payout limit of 50.00 ETB.' });
    const bank = await bankPayout(biz, card.card_number, 5_001);
    expect(bank.body).toMatchObject({ message: 'Limit exceeded' });
    expect(await cardBalance(biz.test, card.card_number)).toBe(95_000);
    expect(await cardBalance(biz.test, to.card_number)).toBe(5_000);
    // A limit of the live mode does not touch test payouts; cleared, the test limit is gone.
    await adminClient().put(`/api/admin/businesses/${biz.id}/limits`, { currency: 'ETB', max_payout: 100 });
    await setLimits(biz, {});
    expect((await cardToCard(biz, card.card_number, to.card_number, 5_001)).status).toBe(200);
  });

  it('daily_payout: counts the day up to the limit exactly, names it, and a failed bank payout gives its amount back', async () => {
    const { biz, card } = await businessWithCard(100_000);
    const to = await createCard(biz.test);
    // Made before the limit: today's total starts from it.
    expect((await cardToCard(biz, card.card_number, to.card_number, 2_000)).status).toBe(200);
    await setLimits(biz, { daily_payout: 10_000 });
    expect(await dayTotal(biz)).toBe(2_000);
    expect((await cardToCard(biz, card.card_number, to.card_number, 6_000)).status).toBe(200);
    const over = await cardToCard(biz, card.card_number, to.card_number, 2_001);
    expect(over.body).toMatchObject({ message: 'Limit exceeded', error: 'This payout exceeds the daily payout limit of 100.00 ETB for today.' });
    expect(await dayTotal(biz)).toBe(8_000);
    // A bank payout that later fails: its amount counts while pending and comes back when it fails.
    const pending = await bankPayout(biz, card.card_number, 2_000);
    expect(pending.status, JSON.stringify(pending.body)).toBe(200);
    expect(await dayTotal(biz)).toBe(10_000);
    expect((await cardToCard(biz, card.card_number, to.card_number, 100)).body.message).toBe('Limit exceeded');
    const settled = await biz.test.post(`/api/v1/test-helpers/payouts/${pending.body.data.provider_reference}/settle`, { status: 'failed' });
    expect(settled.body.data.status).toBe('failed');
    expect(await dayTotal(biz)).toBe(8_000);
    expect((await cardToCard(biz, card.card_number, to.card_number, 2_000)).status).toBe(200);
    expect(await cardBalance(biz.test, card.card_number)).toBe(100_000 - 2_000 - 6_000 - 2_000);
    // Insufficient balance is still that, not the limit.
    await setLimits(biz, { daily_payout: 10_000_000 });
    expect((await cardToCard(biz, card.card_number, to.card_number, 1_000_000)).body.message).toBe('Insufficient balance');
  });

  it('max_card_balance: a card-to-card payout may fill the destination to its limit and not past it', async () => {
    const { biz, card } = await businessWithCard(100_000);
    const other = await createTestBusiness();
    const to = await createCard(other.test);
    await adminClient().put(`/api/admin/businesses/${other.id}/limits`, { mode: 'test', currency: 'ETB', max_card_balance: 30_000 });
    // The destination's own business sets its cards' limit, whoever pays into them.
    expect((await cardToCard(biz, card.card_number, to.card_number, 30_000)).status).toBe(200);
    const over = await cardToCard(biz, card.card_number, to.card_number, 100);
    expect(over.body).toMatchObject({ message: 'Limit exceeded', error: 'This would take the card over its maximum card balance limit of 300.00 ETB.' });
    expect(await cardBalance(other.test, to.card_number)).toBe(30_000);
  });
});

describe('limits on payments and top-ups', () => {
  it('refuses a payment or top-up the card could not take, counting those still pending', async () => {
    const biz = await createTestBusiness();
    const card = await createCard(biz.test);
    await fundCard(biz, card.card_number, 10_000);
    await setLimits(biz, { max_card_balance: 50_000 });
    const first = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 30_000, card_number: card.card_number });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const over = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 10_001, card_number: card.card_number });
    expect(over.body).toMatchObject({ message: 'Limit exceeded', error: 'This would take the card over its maximum card balance limit of 500.00 ETB.' });
    await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 20_000 });
    const topUp = await biz.test.post('/api/v1/transfers', { amount: 10_001, bank_slug: 'link', account_number: card.card_number, account_name: 'x' });
    expect(topUp.body.message).toBe('Limit exceeded');
    expect(await ledgerBalance(`business:${biz.id}`, 'test', 'ETB')).toBe(20_000);
    const fits = await biz.test.post('/api/v1/transfers', { amount: 10_000, bank_slug: 'link', account_number: card.card_number, account_name: 'x' });
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    await biz.test.post(`/api/v1/test-helpers/payouts/${fits.body.data.provider_reference}/settle`, { status: 'success' });
    const paid = await biz.test.post(`/api/v1/test-helpers/payments/${first.body.data.link_reference}/complete`, { status: 'success' });
    expect(paid.body.data.status).toBe('success');
    expect(await cardBalance(biz.test, card.card_number)).toBe(50_000);
  });

  it('a payment completing over the limit (lowered after it started) leaves the money on the business account', async () => {
    const biz = await createTestBusiness();
    const card = await createCard(biz.test);
    const payment = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 20_000, card_number: card.card_number });
    expect(payment.status).toBe(201);
    await setLimits(biz, { max_card_balance: 10_000 });
    const paid = await biz.test.post(`/api/v1/test-helpers/payments/${payment.body.data.link_reference}/complete`, { status: 'success' });
    expect(paid.body.data.status).toBe('success');
    expect(await cardBalance(biz.test, card.card_number)).toBe(0);
    expect(await ledgerBalance(`business:${biz.id}`, 'test', 'ETB')).toBe(20_000);
  });

  it('a top-up settling over the limit fails and goes back to the business account', async () => {
    const biz = await createTestBusiness();
    const card = await createCard(biz.test);
    await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 20_000 });
    const t = await biz.test.post('/api/v1/transfers', { amount: 20_000, bank_slug: 'link', account_number: card.card_number, account_name: 'x' });
    await setLimits(biz, { max_card_balance: 10_000 });
    const s = await biz.test.post(`/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, { status: 'success' });
    expect(s.body.data.status).toBe('failed');
    expect(await cardBalance(biz.test, card.card_number)).toBe(0);
    expect(await ledgerBalance(`business:${biz.id}`, 'test', 'ETB')).toBe(20_000);
  });
});

describe('limits under 50 concurrent requests', () => {
  it('daily_payout: 50 payouts at once from 50 cards to 50 cards, room for 10: exactly 10 pass', async () => {
    const biz = await createTestBusiness();
    const sources = await Promise.all(Array.from({ length: 50 }, () => createCard(biz.test)));
    const targets = await Promise.all(Array.from({ length: 50 }, () => createCard(biz.test)));
    for (const s of sources) await fundCard(biz, s.card_number, 1_000);
    await setLimits(biz, { daily_payout: 10_000 });
    const answers = await Promise.all(sources.map((s, i) => cardToCard(biz, s.card_number, targets[i].card_number, 1_000)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 400 && a.body.message === 'Limit exceeded')).toHaveLength(40);
    expect(await dayTotal(biz)).toBe(10_000);
    const balances = await Promise.all(targets.map((t) => cardBalance(biz.test, t.card_number)));
    expect(balances.reduce((a, b) => a + b, 0)).toBe(10_000);
  });

  it('max_card_balance: 50 payouts at once into one card with room for 7: exactly 7 pass', async () => {
    const { biz, card } = await businessWithCard(100_000);
    const to = await createCard(biz.test);
    await setLimits(biz, { max_card_balance: 7_000 });
    const answers = await Promise.all(Array.from({ length: 50 }, () => cardToCard(biz, card.card_number, to.card_number, 1_000)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(7);
    expect(answers.filter((a) => a.body.message === 'Limit exceeded')).toHaveLength(43);
    expect(await cardBalance(biz.test, to.card_number)).toBe(7_000);
  });

  it('max_card_balance: 50 payment links at once for one card with room for 5: exactly 5 are created', async () => {
    const biz = await createTestBusiness();
    const card = await createCard(biz.test);
    await setLimits(biz, { max_card_balance: 5_000 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 1_000, card_number: card.card_number })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    expect(answers.filter((a) => a.body.message === 'Limit exceeded')).toHaveLength(45);
  });
});
