import { beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { adminClient, createCard, createTestBusiness, randomPhone, testDb, type TestBusiness } from '../helpers';
import { businessBalance, fundCard } from '../ledger-helpers';

let biz: TestBusiness;
beforeAll(async () => {
  biz = await createTestBusiness('Cards Co');
});

const CARD_KEYS = [
  'ref_id',
  'name',
  'card_number',
  'currency',
  'status',
  'last_four',
  'is_scoped',
  'business_id',
  'available_amount',
  'held_amount',
  'created_at',
  'updated_at',
  'expires_at',
];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /card', () => {
  it('creates a card with every field of SPEC.md, in order', async () => {
    const phone = randomPhone();
    const res = await biz.test.post('/api/v1/card', { phone_number: phone, currency: 'USD', first_name: 'Sara', last_name: 'Tesfaye' });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('success');
    expect(res.body.message).toMatch(/created/i);
    const card = res.body.data;
    expect(Object.keys(card)).toEqual(CARD_KEYS);
    expect(card).toMatchObject({ name: 'Sara Tesfaye', currency: 'USD', status: 1, is_scoped: 1, business_id: biz.id, available_amount: 0, expires_at: null });
    expect(card.card_number).toMatch(/^\d{16}$/);
    expect(card.last_four).toBe(card.card_number.slice(-4));
    expect(card.created_at).toMatch(ISO_MS);
    expect(card.updated_at).toMatch(ISO_MS);
  });

  it("knows a returning customer without first_name, across businesses, without the other business's name", async () => {
    const phone = randomPhone();
    await createCard(biz.test, 'ETB', phone);
    const other = await createTestBusiness('Other');
    const res = await other.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB' });
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('');
  });

  it('404 User not found for a new phone without first_name', async () => {
    const res = await biz.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'error', message: 'User not found' });
  });

  it('409 Gift card already exists for the same customer and currency; other currency and mode are fine', async () => {
    const phone = randomPhone();
    await createCard(biz.test, 'ETB', phone);
    const again = await biz.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'X' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: 'error', message: 'Gift card already exists' });
    expect((await biz.test.post('/api/v1/card', { phone_number: phone, currency: 'USD' })).status).toBe(201);
    expect((await biz.live.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Live' })).status).toBe(201);
  });

  it('keeps test and live customers apart: a phone known in test mode is new in live mode, and a test name never shows there', async () => {
    const phone = randomPhone();
    await biz.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Sandbox', last_name: 'Person' });
    const unknown = await biz.live.post('/api/v1/card', { phone_number: phone, currency: 'ETB' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('User not found');
    const live = await biz.live.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Real', last_name: 'Name' });
    expect(live.status).toBe(201);
    expect(live.body.data.name).toBe('Real Name');
    const testCard = await biz.test.get(`/api/v1/card?phone_number=${phone.slice(4)}`);
    expect(testCard.body.data.items.map((c: { name: string }) => c.name)).toEqual(['Sandbox Person']);
  });

  it('allows only one card under a burst of identical requests', async () => {
    const phone = randomPhone();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => biz.test.post('/api/v1/card', { phone_number: phone, currency: 'DJF', first_name: 'Race' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
  });

  it.each([
    [{ currency: 'ETB', first_name: 'A' }, 'phone_number'],
    [{ phone_number: '+251911234567', first_name: 'A' }, 'currency'],
    [{ phone_number: '+251911234567', currency: 'EUR', first_name: 'A' }, 'currency'],
    [{ phone_number: 251911234567, currency: 'ETB', first_name: 'A' }, 'phone_number'],
    [{ phone_number: '+251911234567', currency: 'ETB', first_name: 42 }, 'first_name'],
    [{ phone_number: '+251911234567', currency: 'ETB', first_name: '   ' }, 'first_name'],
  ])('400 Validation error keyed by field for %j', async (body, field) => {
    const res = await biz.test.post('/api/v1/card', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation error');
    expect(Object.keys(res.body.error)).toContain(field);
  });

  it.each(['0911234567', '+2519', '+12345', 'hello'])('400 Invalid phone number for %s', async (phone) => {
    const res = await biz.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'A' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', message: 'Invalid phone number' });
  });

  it('ignores fields it does not know, including attempts to set balance, status or owner', async () => {
    const other = await createTestBusiness('Victim');
    const res = await biz.test.post('/api/v1/card', {
      phone_number: randomPhone(),
      currency: 'ETB',
      first_name: 'A',
      available_amount: 1_000_000,
      status: 3,
      business_id: other.id,
      mode: 'live',
      balance: 5,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ available_amount: 0, status: 1, business_id: biz.id });
    expect((await biz.test.get(`/api/v1/card/${res.body.data.card_number}`)).status).toBe(200);
    expect((await biz.live.get(`/api/v1/card/${res.body.data.card_number}`)).status).toBe(404);
  });
});

describe('GET /card', () => {
  it('pages newest first with items, page, pages, size, total', async () => {
    const b = await createTestBusiness('Lister');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createCard(b.test)).card_number);
    const page1 = await b.test.get('/api/v1/card?limit=2');
    expect(page1.status).toBe(200);
    expect(Object.keys(page1.body.data)).toEqual(['items', 'page', 'pages', 'size', 'total']);
    expect(page1.body.data).toMatchObject({ page: 1, pages: 3, size: 2, total: 5 });
    const all = [];
    for (let p = 1; p <= 3; p++)
      all.push(...(await b.test.get(`/api/v1/card?limit=2&page=${p}`)).body.data.items.map((c: { card_number: string }) => c.card_number));
    expect(all).toEqual([...made].reverse());
    const defaults = await b.test.get('/api/v1/card');
    expect(defaults.body.data).toMatchObject({ page: 1, size: 15, total: 5, pages: 1 });
  });

  it('filters by national number with or without the trunk 0, and by the international form', async () => {
    const b = await createTestBusiness('Filter');
    const phone = randomPhone();
    const card = await createCard(b.test, 'ETB', phone);
    await createCard(b.test);
    const national = phone.slice(4);
    for (const q of [national, `0${national}`, encodeURIComponent(phone)]) {
      const res = await b.test.get(`/api/v1/card?phone_number=${q}`);
      expect(res.body.data.total).toBe(1);
      expect(res.body.data.items[0].card_number).toBe(card.card_number);
    }
    expect((await b.test.get('/api/v1/card?phone_number=900000000')).body.data.total).toBe(0);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['offset=-1', 'offset'],
  ])('400 Validation error for %s', async (q, field) => {
    const res = await biz.test.get(`/api/v1/card?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation error');
    expect(Object.keys(res.body.error)).toEqual([field]);
  });

  it('uses offset instead of page when given', async () => {
    const b = await createTestBusiness('Offsets');
    for (let i = 0; i < 4; i++) await createCard(b.test);
    const res = await b.test.get('/api/v1/card?limit=2&offset=3&page=1');
    expect(res.body.data).toMatchObject({ page: 2, size: 2, total: 4 });
    expect(res.body.data.items).toHaveLength(1);
  });
});

describe('GET /card/{card_number}', () => {
  it('returns the card with its balance', async () => {
    const card = await createCard(biz.test);
    await fundCard(card.card_number, 2_500);
    const res = await biz.test.get(`/api/v1/card/${card.card_number}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ card_number: card.card_number, available_amount: 2_500 });
  });

  it('404 Gift card not found for unknown numbers', async () => {
    for (const n of ['0000000000000000', 'abc', '1'.repeat(300)]) {
      const res = await biz.test.get(`/api/v1/card/${n}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: 'error', message: 'Gift card not found' });
    }
  });

  it('400 Invalid card number when the path parameter is blank', async () => {
    const res = await biz.test.get('/api/v1/card/%20');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', message: 'Invalid card number' });
  });
});

describe('PATCH /card/{card_number}', () => {
  it('disables, refuses a second disable, and enables again', async () => {
    const card = await createCard(biz.test);
    const off = await biz.test.patch(`/api/v1/card/${card.card_number}`, { status: 'disable' });
    expect(off.status).toBe(200);
    expect(off.body.message).toMatch(/disabled/);
    expect(off.body.data.status).toBe(3);
    expect(Date.parse(off.body.data.updated_at)).toBeGreaterThan(Date.parse(off.body.data.created_at) - 1);
    const twice = await biz.test.patch(`/api/v1/card/${card.card_number}`, { status: 'disable' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Already disabled');
    const on = await biz.test.patch(`/api/v1/card/${card.card_number}`, { status: 'enable' });
    expect(on.status).toBe(200);
    expect(on.body.message).toMatch(/enabled/);
    expect(on.body.data.status).toBe(1);
  });

  it('403 Cannot enable a card the provider disabled; the provider can lift it', async () => {
    const card = await createCard(biz.test);
    const admin = adminClient();
    expect((await admin.post(`/api/admin/cards/${card.card_number}/disable`)).status).toBe(200);
    expect((await biz.test.get(`/api/v1/card/${card.card_number}`)).body.data.status).toBe(3);
    const res = await biz.test.patch(`/api/v1/card/${card.card_number}`, { status: 'enable' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Cannot enable');
    expect((await biz.test.patch(`/api/v1/card/${card.card_number}`, { status: 'disable' })).status).toBe(409);
    expect((await admin.post(`/api/admin/cards/${card.card_number}/enable`)).status).toBe(200);
    expect((await biz.test.get(`/api/v1/card/${card.card_number}`)).body.data.status).toBe(1);
  });

  it.each([[{}], [{ status: 'freeze' }], [{ status: 1 }], [{ status: null }]])('400 Validation error keyed status for %j', async (body) => {
    const card = await createCard(biz.test);
    const res = await biz.test.patch(`/api/v1/card/${card.card_number}`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation error');
    expect(Object.keys(res.body.error)).toEqual(['status']);
  });

  it('404 for an unknown card and 400 for a blank number', async () => {
    expect((await biz.test.patch('/api/v1/card/1234567890123456', { status: 'disable' })).body.message).toBe('Gift card not found');
    expect((await biz.test.patch('/api/v1/card/%20', { status: 'disable' })).body.message).toBe('Invalid card number');
  });
});

describe('DELETE /card/{card_number}', () => {
  it('cancels: data null, gone from list and detail, balance moved to the business account', async () => {
    const b = await createTestBusiness('Canceller');
    const card = await createCard(b.test, 'UGX');
    await fundCard(card.card_number, 12_345);
    const before = await businessBalance(b.id, 'test', 'UGX');
    const res = await b.test.delete(`/api/v1/card/${card.card_number}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', message: expect.stringMatching(/cancel/i), data: null });
    expect(await businessBalance(b.id, 'test', 'UGX')).toBe(before + 12_345);
    expect((await b.test.get(`/api/v1/card/${card.card_number}`)).status).toBe(404);
    const list = await b.test.get('/api/v1/card');
    expect(list.body.data.items.map((c: { card_number: string }) => c.card_number)).not.toContain(card.card_number);
    expect(list.body.data.total).toBe(0);
    expect((await b.test.delete(`/api/v1/card/${card.card_number}`)).status).toBe(404);
    expect((await verifyLedger(testDb())).ok).toBe(true);
  });

  it('lets the customer get a new card of that currency afterwards', async () => {
    const phone = randomPhone();
    const card = await createCard(biz.test, 'ETB', phone);
    expect((await biz.test.delete(`/api/v1/card/${card.card_number}`)).status).toBe(200);
    const again = await biz.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB' });
    expect(again.status).toBe(201);
    expect(again.body.data.card_number).not.toBe(card.card_number);
  });

  it('404 Gift card not found and 400 Invalid card number', async () => {
    expect((await biz.test.delete('/api/v1/card/1234567890123456')).body.message).toBe('Gift card not found');
    expect((await biz.test.delete('/api/v1/card/%20')).status).toBe(400);
  });
});
