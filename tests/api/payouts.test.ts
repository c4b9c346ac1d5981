import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { adminClient, createCard, createTestBusiness, testDb, type TestBusiness } from '../helpers';
import { businessWithCard, cardBalance, eventsFor, fundCard, ledgerBalance, setFees } from './payouts-fixtures';
import { waitFor } from '../helpers';

const expectError = (res: { status: number; body: any }, status: number, message: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.status).toBe('error');
  expect(res.body.message).toBe(message);
};

describe('card-to-card payouts', () => {
  let biz: TestBusiness;
  let source: string;
  beforeAll(async () => {
    ({
      biz,
      card: { card_number: source },
    } = await businessWithCard(100_000));
  });

  it('moves amount plus fee from the sender by default, answers the SPEC fields, lists it and writes its event', async () => {
    const other = await createTestBusiness();
    const dest = await createCard(other.test);
    await setFees(biz, 'test', [{ applies_to: 'card_to_card', percent: 1.5, fixed: 10 }]);
    const feeBefore = await ledgerBalance('provider:fee-revenue', 'test', 'ETB');
    const res = await biz.test.post('/api/v1/card/payouts', { card_number: source, destination_card_number: dest.card_number, amount: 1000 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d)).toEqual([
      'initiator_reference',
      'source_card_number',
      'destination_card_number',
      'amount',
      'service_fee',
      'charge_payer',
      'currency',
    ]);
    expect(d).toMatchObject({
      source_card_number: source,
      destination_card_number: dest.card_number,
      amount: 1000,
      service_fee: 25,
      charge_payer: 'sender',
      currency: 'ETB',
    });
    expect(await cardBalance(biz.test, source)).toBe(100_000 - 1025);
    expect(await cardBalance(other.test, dest.card_number)).toBe(1000);
    expect((await ledgerBalance('provider:fee-revenue', 'test', 'ETB')) - feeBefore).toBeGreaterThanOrEqual(25);

    const status = await biz.test.get(`/api/v1/card/payout/${d.initiator_reference}/status`);
    expect(status.status).toBe(200);
    expect(Object.keys(status.body.data)).toEqual(['reference', 'provider_ref', 'amount', 'service_fee', 'currency', 'status', 'created_at', 'completed_at']);
    expect(status.body.data).toMatchObject({ reference: d.initiator_reference, amount: 1000, service_fee: 25, status: 'success' });
    expect(status.body.data.completed_at).toMatch(/Z$/);

    const [event] = await eventsFor(d.initiator_reference);
    expect(event.type).toBe('payout.success');
    const body = JSON.parse(event.body);
    expect(Object.keys(body)).toEqual([
      'event',
      'status',
      'mode',
      'payout_type',
      'currency',
      'amount',
      'initiator_reference',
      'customer',
      'meta',
      'created_at',
      'updated_at',
    ]);
    expect(body).toMatchObject({
      event: 'payout.success',
      status: 'success',
      mode: 'test',
      payout_type: 'card_to_card',
      amount: 1000,
      meta: { source_card_number: source, destination_card_number: dest.card_number },
    });
    await setFees(biz, 'test', []);
  });

  it('lets the receiver pay the fee, and refuses an amount that does not cover it', async () => {
    const dest = await createCard(biz.test);
    await setFees(biz, 'test', [{ applies_to: 'card_to_card', percent: 0, fixed: 150 }]);
    const before = await cardBalance(biz.test, source);
    const ok = await biz.test.post('/api/v1/card/payouts', {
      card_number: source,
      destination_card_number: dest.card_number,
      amount: 500,
      charge_payer: 'receiver',
    });
    expect(ok.status).toBe(200);
    expect(await cardBalance(biz.test, source)).toBe(before - 500);
    expect(await cardBalance(biz.test, dest.card_number)).toBe(350);
    const small = await biz.test.post('/api/v1/card/payouts', {
      card_number: source,
      destination_card_number: dest.card_number,
      amount: 150,
      charge_payer: 'receiver',
    });
    expectError(small, 400, 'Amount is too small to cover the service fee');
    await setFees(biz, 'test', []);
  });

  it('answers every card-to-card error row with its status and message', async () => {
    const dest = await createCard(biz.test);
    const usd = await createCard(biz.test, 'USD');
    const post = (body: Record<string, unknown>) => biz.test.post('/api/v1/card/payouts', body);
    expectError(await post({ card_number: source, destination_card_number: source, amount: 100 }), 400, 'Same card');
    expectError(
      await post({ card_number: source, destination_card_number: dest.card_number, amount: 100, charge_payer: 'business' }),
      400,
      'Invalid charge payer',
    );
    expectError(await post({ card_number: source, destination_card_number: '4000000000000002', amount: 100 }), 404, 'Destination card not found');
    expectError(await post({ card_number: source, destination_card_number: usd.card_number, amount: 100 }), 400, 'Currency mismatch');
    expectError(await post({ card_number: source, destination_card_number: dest.card_number, amount: 10_000_000 }), 400, 'Insufficient balance');
    const v = await post({ card_number: source, destination_card_number: dest.card_number, amount: 99 });
    expectError(v, 400, 'Validation error');
    expect(v.body.error).toHaveProperty('amount');
    expectError(await post({ destination_card_number: dest.card_number, amount: 100 }), 400, 'Validation error');

    // A live card is another mode: not found from a test key.
    const liveCard = await createCard(biz.live);
    expectError(await post({ card_number: source, destination_card_number: liveCard.card_number, amount: 100 }), 404, 'Destination card not found');

    const disabledDest = await createCard(biz.test);
    await biz.test.patch(`/api/v1/card/${disabledDest.card_number}`, { status: 'disable' });
    expectError(await post({ card_number: source, destination_card_number: disabledDest.card_number, amount: 100 }), 400, 'Destination card disabled');
    const cancelledDest = await createCard(biz.test);
    await biz.test.delete(`/api/v1/card/${cancelledDest.card_number}`);
    expectError(await post({ card_number: source, destination_card_number: cancelledDest.card_number, amount: 100 }), 404, 'Destination card not found');

    const other = await createTestBusiness();
    const foreign = await createCard(other.test);
    expectError(await post({ card_number: foreign.card_number, destination_card_number: dest.card_number, amount: 100 }), 404, 'Gift card not found');
    const disabledSource = await createCard(biz.test);
    await biz.test.patch(`/api/v1/card/${disabledSource.card_number}`, { status: 'disable' });
    expectError(await post({ card_number: disabledSource.card_number, destination_card_number: dest.card_number, amount: 100 }), 400, 'Gift card disabled');
  });

  // The server remembers cards and fee rules it has read; each of these steps changes one after it was remembered.
  it('applies a fee or card change made after the cards were last used', async () => {
    const { biz: b, card } = await businessWithCard(5_000);
    const from = card.card_number;
    const to = (await createCard(b.test)).card_number;
    const post = (amount: number) => b.test.post('/api/v1/card/payouts', { card_number: from, destination_card_number: to, amount });
    expect((await post(100)).body.data.service_fee).toBe(0);

    await setFees(b, 'test', [{ applies_to: 'card_to_card', percent: 0, fixed: 7 }]);
    expect((await post(100)).body.data.service_fee).toBe(7);
    await setFees(b, 'test', [{ applies_to: 'card_to_card', percent: 0, fixed: 7, max: 3 }]);
    expect((await post(100)).body.data.service_fee).toBe(3);
    await setFees(b, 'test', []);
    expect((await post(100)).body.data.service_fee).toBe(0);
    expect(await cardBalance(b.test, from)).toBe(5_000 - 400 - 10);

    await b.test.patch(`/api/v1/card/${to}`, { status: 'disable' });
    expectError(await post(100), 400, 'Destination card disabled');
    await b.test.patch(`/api/v1/card/${to}`, { status: 'enable' });
    expect((await post(100)).status).toBe(200);
    await b.test.patch(`/api/v1/card/${from}`, { status: 'disable' });
    // Disabled and short of funds at once: the card's state is the answer, as when it was never remembered.
    expectError(await post(1_000_000), 400, 'Gift card disabled');
    expectError(await post(100), 400, 'Gift card disabled');
    await b.test.patch(`/api/v1/card/${from}`, { status: 'enable' });
    expect((await post(100)).status).toBe(200);

    await b.test.delete(`/api/v1/card/${to}`);
    expectError(await post(100), 404, 'Destination card not found');
    await b.test.delete(`/api/v1/card/${from}`);
    const again = await b.test.post('/api/v1/card/payouts', {
      card_number: from,
      destination_card_number: (await createCard(b.test)).card_number,
      amount: 100,
    });
    expectError(again, 404, 'Gift card not found');
    expect((await verifyLedger(testDb())).ok).toBe(true);
  });
});

describe('destination type', () => {
  it('refuses several destinations, incomplete bank fields and none', async () => {
    const { biz, card } = await businessWithCard(0);
    const post = (body: Record<string, unknown>) => biz.test.post('/api/v1/card/payouts', { card_number: card.card_number, amount: 100, ...body });
    expectError(await post({ merchant_id: 'mer_x', destination_card_number: '4000000000000002' }), 400, 'Invalid payout request');
    expectError(
      await post({ destination_card_number: '4000000000000002', bank_slug: 'cbe', account_number: '1', account_name: 'A' }),
      400,
      'Invalid payout request',
    );
    expectError(await post({ bank_slug: 'cbe', account_number: '1000' }), 400, 'Invalid payout request');
    const none = await post({});
    expectError(none, 400, 'Validation error');
    expect(none.body.error).toHaveProperty('destination');
  });
});

describe('B2B payouts', () => {
  let biz: TestBusiness;
  let merchant: TestBusiness;
  let source: string;
  beforeAll(async () => {
    ({
      biz,
      card: { card_number: source },
    } = await businessWithCard(50_000));
    merchant = await createTestBusiness('Merchant');
  });

  it('credits the merchant account less the fee when the business pays, and answers SUCCESS', async () => {
    await setFees(biz, 'test', [{ applies_to: 'b2b', percent: 2, fixed: 0 }]);
    const before = await ledgerBalance(`business:${merchant.id}`, 'test', 'ETB');
    const res = await biz.test.post('/api/v1/card/payouts', { card_number: source, merchant_id: merchant.merchant_id, amount: 10_000 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['provider_reference', 'status', 'created_at', 'updated_at']);
    expect(res.body.data.status).toBe('SUCCESS');
    expect(await cardBalance(biz.test, source)).toBe(40_000);
    expect((await ledgerBalance(`business:${merchant.id}`, 'test', 'ETB')) - before).toBe(9_800);
    const [event] = await eventsFor(res.body.data.provider_reference);
    expect(JSON.parse(event.body)).toMatchObject({
      event: 'payout.success',
      payout_type: 'b2b',
      provider_reference: res.body.data.provider_reference,
      meta: { source_card_number: source, merchant_id: merchant.merchant_id },
    });

    const customerPays = await biz.test.post('/api/v1/card/payouts', {
      card_number: source,
      merchant_id: merchant.merchant_id,
      amount: 10_000,
      charge_payer: 'customer',
    });
    expect(customerPays.status).toBe(200);
    expect(await cardBalance(biz.test, source)).toBe(40_000 - 10_200);
    expect((await ledgerBalance(`business:${merchant.id}`, 'test', 'ETB')) - before).toBe(19_800);
  });

  it('answers the B2B error rows', async () => {
    await setFees(biz, 'test', [{ applies_to: 'b2b', percent: 0, fixed: 500 }]);
    const post = (body: Record<string, unknown>) => biz.test.post('/api/v1/card/payouts', { card_number: source, amount: 1000, ...body });
    expectError(await post({ merchant_id: merchant.merchant_id, charge_payer: 'sender' }), 400, 'Invalid charge payer');
    expectError(await post({ merchant_id: merchant.merchant_id, amount: 500 }), 400, 'Amount is too small to cover the service fee');
    expectError(await post({ merchant_id: 'mer_doesnotexist' }), 400, 'Payout request failed');
    expectError(await post({ merchant_id: biz.merchant_id }), 400, 'Payout request failed');
    expectError(await post({ merchant_id: merchant.merchant_id, amount: 1_000_000 }), 400, 'Insufficient balance');
    expectError(await post({ merchant_id: merchant.merchant_id, card_number: '4000000000000002' }), 404, 'Gift card not found');
    await setFees(biz, 'test', []);
  });
});

describe('bank payouts', () => {
  let biz: TestBusiness;
  let source: string;
  beforeAll(async () => {
    ({
      biz,
      card: { card_number: source },
    } = await businessWithCard(100_000));
  });
  const bankPayout = (body: Record<string, unknown> = {}) =>
    biz.test.post('/api/v1/card/payouts', {
      card_number: source,
      amount: 5_000,
      bank_slug: 'cbe',
      account_number: '1000123456123',
      account_name: 'Abebe Kebede',
      ...body,
    });

  it('debits at once, stays PENDING, and settles once through the provider update', async () => {
    await setFees(biz, 'test', [{ applies_to: 'bank', percent: 1, fixed: 0 }]);
    const before = await cardBalance(biz.test, source);
    const res = await bankPayout();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ provider_reference: expect.stringMatching(/^bnk_/), status: 'PENDING' });
    const ref = res.body.data.provider_reference;
    expect(await cardBalance(biz.test, source)).toBe(before - 5_000);
    const pending = await biz.test.get(`/api/v1/card/payout/${ref}/status`);
    expect(pending.body.data).toMatchObject({ status: 'pending', completed_at: null, service_fee: 50 });
    expect(await eventsFor(ref)).toHaveLength(0);

    const settled = await biz.test.post(`/api/v1/test-helpers/payouts/${ref}/settle`, { status: 'success' });
    expect(settled.status).toBe(200);
    expect(settled.body.data).toMatchObject({ reference: ref, status: 'success' });
    const again = await biz.test.post(`/api/v1/test-helpers/payouts/${ref}/settle`, { status: 'failed' });
    expect(again.body.data.status).toBe('success');
    expect(await cardBalance(biz.test, source)).toBe(before - 5_000);
    const events = await eventsFor(ref);
    expect(events.map((e) => e.type)).toEqual(['payout.success']);
    expect(JSON.parse(events[0].body).meta).toEqual({
      source_card_number: source,
      bank_slug: 'cbe',
      account_number: '1000123456123',
      account_name: 'Abebe Kebede',
    });
  });

  it('puts the whole debit back in one reversing transaction when it fails', async () => {
    await setFees(biz, 'test', [{ applies_to: 'bank', percent: 0, fixed: 200 }]);
    const before = await cardBalance(biz.test, source);
    const res = await bankPayout({ charge_payer: 'customer' });
    expect(await cardBalance(biz.test, source)).toBe(before - 5_200);
    const ref = res.body.data.provider_reference;
    const failed = await biz.test.post(`/api/v1/test-helpers/payouts/${ref}/settle`, { status: 'failed' });
    expect(failed.body.data.status).toBe('failed');
    expect(await cardBalance(biz.test, source)).toBe(before);
    const txs = await testDb().execute<{ kind: string; reverses_id: number | null }>(
      sql`SELECT kind, reverses_id FROM ledger_transactions WHERE reference = ${ref} ORDER BY id`,
    );
    expect(txs.rows.map((t) => t.kind)).toEqual(['payout_bank', 'payout_bank_reversal']);
    expect(txs.rows[1].reverses_id).not.toBeNull();
    expect((await eventsFor(ref)).map((e) => e.type)).toEqual(['payout.failed']);
    await setFees(biz, 'test', []);
  });

  it('is settled by the worker when due; an account ending 0000 fails; a cancelled card is refunded to the business account', async () => {
    const { biz: b, card } = await businessWithCard(20_000);
    const res = await b.test.post('/api/v1/card/payouts', {
      card_number: card.card_number,
      amount: 5_000,
      bank_slug: 'telebirr',
      account_number: '0910000000',
      account_name: 'X',
    });
    expect(res.status).toBe(200);
    const ref = res.body.data.provider_reference;
    await b.test.delete(`/api/v1/card/${card.card_number}`);
    const businessBefore = await ledgerBalance(`business:${b.id}`, 'test', 'ETB');
    expect(businessBefore).toBe(15_000);
    await testDb().execute(sql`UPDATE payouts SET settle_after = now() WHERE reference = ${ref}`);
    await waitFor(async () => ((await b.test.get(`/api/v1/card/payout/${ref}/status`)).body.data.status === 'failed' ? true : undefined));
    expect(await ledgerBalance(`business:${b.id}`, 'test', 'ETB')).toBe(20_000);
    expect((await eventsFor(ref)).map((e) => e.type)).toEqual(['payout.failed']);
  });

  it('refunds a card disabled meanwhile to the business account, as for a cancelled one', async () => {
    const { biz: b, card } = await businessWithCard(20_000);
    const res = await b.test.post('/api/v1/card/payouts', {
      card_number: card.card_number,
      amount: 5_000,
      bank_slug: 'cbe',
      account_number: '1000123456123',
      account_name: 'X',
    });
    const ref = res.body.data.provider_reference;
    expect((await b.test.patch(`/api/v1/card/${card.card_number}`, { status: 'disable' })).status).toBe(200);
    const businessBefore = await ledgerBalance(`business:${b.id}`, 'test', 'ETB');
    const failed = await b.test.post(`/api/v1/test-helpers/payouts/${ref}/settle`, { status: 'failed' });
    expect(failed.body.data.status).toBe('failed');
    expect(await ledgerBalance(`business:${b.id}`, 'test', 'ETB')).toBe(businessBefore + 5_000);
    expect(await cardBalance(b.test, card.card_number)).toBe(15_000);
    expect((await eventsFor(ref)).map((e) => e.type)).toEqual(['payout.failed']);
  });

  it('answers the bank error rows', async () => {
    await setFees(biz, 'test', [{ applies_to: 'bank', percent: 0, fixed: 300 }]);
    expectError(await bankPayout({ charge_payer: 'receiver' }), 400, 'Invalid charge payer');
    expectError(await bankPayout({ amount: 300 }), 400, 'Amount is too small to cover the service fee');
    expectError(await bankPayout({ bank_slug: 'nosuchbank' }), 400, 'Payout request failed');
    expectError(await bankPayout({ bank_slug: 'cac' }), 400, 'Payout request failed');
    expectError(await bankPayout({ amount: 10_000_000 }), 400, 'Insufficient balance');
    await setFees(biz, 'test', []);
    const disabled = await createCard(biz.test);
    await fundCard(biz, disabled.card_number, 1_000);
    await adminClient().post(`/api/admin/cards/${disabled.card_number}/disable`);
    expectError(await bankPayout({ card_number: disabled.card_number, amount: 100 }), 400, 'Gift card disabled');
  });

  it('answers 502 Failed to initiate payout in live mode, with nothing debited', async () => {
    const card = await createCard(biz.live);
    const res = await biz.live.post('/api/v1/card/payouts', {
      card_number: card.card_number,
      amount: 100,
      bank_slug: 'cbe',
      account_number: '1000123456789',
      account_name: 'A',
    });
    expectError(res, 502, 'Failed to initiate payout');
    expect(await cardBalance(biz.live, card.card_number)).toBe(0);
  });

  it('lists the banks', async () => {
    const res = await biz.test.get('/api/v1/banks');
    expect(res.status).toBe(200);
    expect(res.body.data).toContainEqual({ slug: 'cbe', name: 'Commercial Bank of Ethiopia', type: 'bank', currencies: ['ETB'] });
  });
});

describe('payout list and status', () => {
  it('lists newest first with only the reference field of each type, pages with limit and offset', async () => {
    const { biz, card } = await businessWithCard(100_000);
    const merchant = await createTestBusiness();
    const dest = await createCard(biz.test);
    const c2c = await biz.test.post('/api/v1/card/payouts', { card_number: card.card_number, destination_card_number: dest.card_number, amount: 100 });
    const b2b = await biz.test.post('/api/v1/card/payouts', { card_number: card.card_number, merchant_id: merchant.merchant_id, amount: 100 });
    const bank = await biz.test.post('/api/v1/card/payouts', {
      card_number: card.card_number,
      amount: 100,
      bank_slug: 'cbe',
      account_number: '1000123456789',
      account_name: 'A',
    });
    const list = await biz.test.get('/api/v1/card/payouts');
    expect(list.status).toBe(200);
    const { items, total, page, limit, pages } = list.body.data;
    // The card was funded by a ledger top-up, which is not a card payout and is not listed.
    expect({ total, page, limit, pages }).toEqual({ total: 3, page: 1, limit: 15, pages: 1 });
    expect(items.map((i: any) => i.payout_type)).toEqual(['bank', 'b2b', 'card_to_card']);
    expect(items.every((i: any) => typeof i.source_card_number === 'string')).toBe(true);
    expect(Object.keys(items[0])).toEqual([
      'payout_type',
      'status',
      'currency',
      'amount',
      'service_fee',
      'provider_reference',
      'source_card_number',
      'mode',
      'created_at',
      'updated_at',
    ]);
    expect(Object.keys(items[1])).toEqual([
      'payout_type',
      'status',
      'currency',
      'amount',
      'service_fee',
      'provider_reference',
      'source_card_number',
      'merchant_id',
      'mode',
      'created_at',
      'updated_at',
    ]);
    expect(Object.keys(items[2])).toEqual([
      'payout_type',
      'status',
      'currency',
      'amount',
      'service_fee',
      'initiator_reference',
      'source_card_number',
      'destination_card_number',
      'mode',
      'created_at',
      'updated_at',
    ]);
    expect(items[0]).toMatchObject({ provider_reference: bank.body.data.provider_reference, status: 'pending' });
    expect(items[1]).toMatchObject({ provider_reference: b2b.body.data.provider_reference, merchant_id: merchant.merchant_id });
    expect(items[2]).toMatchObject({ initiator_reference: c2c.body.data.initiator_reference, destination_card_number: dest.card_number });

    const second = await biz.test.get('/api/v1/card/payouts?limit=2&page=2');
    expect(second.body.data).toMatchObject({ total: 3, page: 2, limit: 2, pages: 2 });
    expect(second.body.data.items.map((i: any) => i.payout_type)).toEqual(['card_to_card']);
    const byOffset = await biz.test.get('/api/v1/card/payouts?limit=2&offset=1');
    expect(byOffset.body.data.page).toBe(1);
    expect(byOffset.body.data.items.map((i: any) => i.payout_type)).toEqual(['b2b', 'card_to_card']);
    expectError(await biz.test.get('/api/v1/card/payouts?limit=101'), 400, 'Validation error');
    expect((await biz.live.get('/api/v1/card/payouts')).body.data.total).toBe(0);
  });

  it('finds a payout only within its business and mode', async () => {
    const { biz, card } = await businessWithCard(1_000);
    const dest = await createCard(biz.test);
    const res = await biz.test.post('/api/v1/card/payouts', { card_number: card.card_number, destination_card_number: dest.card_number, amount: 100 });
    const ref = res.body.data.initiator_reference;
    const other = await createTestBusiness();
    expectError(await other.test.get(`/api/v1/card/payout/${ref}/status`), 404, 'Payout not found');
    expectError(await biz.live.get(`/api/v1/card/payout/${ref}/status`), 404, 'Payout not found');
    expectError(await biz.test.get('/api/v1/card/payout/nope/status'), 404, 'Payout not found');
    expectError(await biz.test.get('/api/v1/card/payout/%20/status'), 400, 'Invalid request');
    expectError(await biz.live.post(`/api/v1/test-helpers/payouts/${ref}/settle`, { status: 'success' }), 404, 'Not found');
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });
});
