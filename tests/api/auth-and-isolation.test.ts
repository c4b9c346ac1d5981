import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient, apiClient, createCard, createTestBusiness, type TestBusiness } from '../helpers';

let a: TestBusiness;
let b: TestBusiness;
let liveCard: string;
let testCard: string;

beforeAll(async () => {
  a = await createTestBusiness('Business A');
  b = await createTestBusiness('Business B');
  liveCard = (await createCard(a.live)).card_number;
  testCard = (await createCard(a.test)).card_number;
});

const cardCalls = (client: ReturnType<typeof apiClient>, card: string) =>
  [
    ['GET detail', () => client.get(`/api/v1/card/${card}`)],
    ['PATCH disable', () => client.patch(`/api/v1/card/${card}`, { status: 'disable' })],
    ['PATCH enable', () => client.patch(`/api/v1/card/${card}`, { status: 'enable' })],
    ['DELETE', () => client.delete(`/api/v1/card/${card}`)],
  ] as const;

describe('keys', () => {
  it('401 Unauthorized without a key, with a malformed key, or an unknown key', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer' },
      { authorization: 'Basic abc' },
      { authorization: 'Bearer sk_test_short' },
      { authorization: `Bearer sk_test_${'A'.repeat(32)}` },
    ]) {
      const res = await apiClient(undefined).get('/api/v1/card', { headers });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status: 'error', message: 'Unauthorized' });
    }
  });

  it('403 Forbidden for an inactive key and for a key not set up for gift cards', async () => {
    for (const flags of [{ active: false }, { gift_cards_enabled: false }]) {
      const issued = await adminClient().post(`/api/admin/businesses/${a.id}/api-keys`, { mode: 'test', ...flags });
      expect(issued.status).toBe(201);
      expect(issued.body.data.key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
      const client = apiClient(issued.body.data.key);
      for (const call of [() => client.get('/api/v1/card'), () => client.get(`/api/v1/card/${testCard}`), () => client.post('/api/v1/card', {})]) {
        const res = await call();
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ status: 'error', message: 'Forbidden' });
      }
    }
  });

  it('issues keys in the documented format and stores only their hash', async () => {
    expect(a.keys.test).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(a.keys.live).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    const { testDb } = await import('../helpers');
    const { sql } = await import('drizzle-orm');
    const rows = await testDb().execute(sql`SELECT count(*)::int AS n FROM api_keys WHERE key_hash = ${a.keys.test} OR prefix = ${a.keys.test}`);
    expect(rows.rows[0]).toEqual({ n: 0 });
  });
});

describe('isolation matrix', () => {
  it("business B's keys and the other mode's key get 404 on every card endpoint of A's cards", async () => {
    const outsiders: [string, ReturnType<typeof apiClient>, string][] = [
      ['B live key on A live card', b.live, liveCard],
      ['B test key on A live card', b.test, liveCard],
      ['A test key on A live card', a.test, liveCard],
      ['B test key on A test card', b.test, testCard],
      ['B live key on A test card', b.live, testCard],
      ['A live key on A test card', a.live, testCard],
    ];
    let checked = 0;
    for (const [who, client, card] of outsiders) {
      for (const [what, call] of cardCalls(client, card)) {
        const res = await call();
        expect({ who, what, status: res.status, message: res.body.message }).toEqual({ who, what, status: 404, message: 'Gift card not found' });
        checked++;
      }
    }
    expect(checked).toBe(24);
    // Nothing the outsiders did changed A's cards.
    expect((await a.live.get(`/api/v1/card/${liveCard}`)).body.data.status).toBe(1);
    expect((await a.test.get(`/api/v1/card/${testCard}`)).body.data.status).toBe(1);
  });

  it("lists never show another business's or mode's cards", async () => {
    const bList = await b.live.get('/api/v1/card?limit=100');
    expect(bList.body.data.items.map((c: { card_number: string }) => c.card_number)).not.toContain(liveCard);
    const aTest = await a.test.get('/api/v1/card?limit=100');
    const numbers = aTest.body.data.items.map((c: { card_number: string }) => c.card_number);
    expect(numbers).toContain(testCard);
    expect(numbers).not.toContain(liveCard);
  });
});

describe('envelope', () => {
  it('400 Validation error with error.body for malformed JSON, arrays and scalars', async () => {
    for (const raw of ['{', '[1,2]', '"text"', 'null', '{"a":']) {
      const res = await a.test.post('/api/v1/card', undefined, { raw });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Validation error');
      expect(Object.keys(res.body.error)).toEqual(['body']);
    }
  });

  it('413 for a body over 1 MB', async () => {
    const res = await a.test.post('/api/v1/card', { phone_number: '+251911234567', padding: 'x'.repeat(1_100_000) });
    expect(res.status).toBe(413);
    expect(res.body.status).toBe('error');
  });

  it('answers the back office only with the admin token', async () => {
    expect((await apiClient(undefined).post('/api/admin/businesses', { name: 'x' })).status).toBe(401);
    expect((await apiClient('wrong').post('/api/admin/businesses', { name: 'x' })).status).toBe(401);
    expect((await apiClient(a.keys.test).post('/api/admin/businesses', { name: 'x' })).status).toBe(401);
  });
});
