import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPayout } from '../../lib/payouts/create-payout';
import { apiClient, createCard, testDb, type ApiClient, type TestBusiness } from '../helpers';
import { startTestServer, type TestServer } from '../test-server';
import { businessWithCard, cardBalance } from './payouts-fixtures';

/**
 * A payout may act on an API key its instance remembers without reading it
 * first (lib/api/api-route.ts, confirmsKey): the payout statement confirms the
 * key itself. Two instances on one database: a key revoked or switched off
 * anywhere is refused on both at once, and nothing moves.
 */
let second: TestServer;
let biz: TestBusiness;
let source: string;
let destination: string;
let onFirst: ApiClient;
let onSecond: ApiClient;

const keyRow = async () =>
  (await testDb().execute<{ id: number }>(sql`SELECT id FROM api_keys WHERE business_id = ${biz.id} AND mode = 'test' ORDER BY id LIMIT 1`)).rows[0];
const payoutCount = async () =>
  Number((await testDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM payouts WHERE business_id = ${biz.id}`)).rows[0].n);
const pay = (client: ApiClient, amount = 100) => client.post('/api/v1/card/payouts', { card_number: source, destination_card_number: destination, amount });
const KEY_CHANGES = {
  revoke: sql`active = false, revoked_at = now()`,
  deactivate: sql`active = false`,
  'disable gift cards': sql`gift_cards_enabled = false`,
  restore: sql`active = true, gift_cards_enabled = true, revoked_at = NULL`,
};
const setKey = (change: keyof typeof KEY_CHANGES) =>
  testDb().execute(sql`UPDATE api_keys SET ${KEY_CHANGES[change]} WHERE business_id = ${biz.id} AND mode = 'test'`);

beforeAll(async () => {
  second = await startTestServer({ databaseUrl: inject('databaseUrl'), adminToken: inject('adminToken'), loops: [] });
  ({
    biz,
    card: { card_number: source },
  } = await businessWithCard(100_000));
  destination = (await createCard(biz.test)).card_number;
  onFirst = biz.test;
  onSecond = apiClient(biz.keys.test, second.baseUrl);
});
afterAll(() => second?.stop());

describe('a payout on a remembered API key', () => {
  it('is refused at once on both instances when the key is switched off, moves nothing, and works again once it is back', async () => {
    // Twice on each instance: the first reads the key and remembers it, the second acts on memory.
    for (const client of [onFirst, onSecond, onFirst, onSecond]) expect((await pay(client)).status).toBe(200);
    const balance = await cardBalance(onFirst, source);
    expect(balance).toBe(100_000 - 400);

    const refusals: [Parameters<typeof setKey>[0], number, string][] = [
      ['deactivate', 403, 'The API key is inactive.'],
      ['disable gift cards', 403, 'The API key is not set up for gift cards.'],
      ['revoke', 403, 'The API key is inactive.'],
    ];
    for (const [change, status, error] of refusals) {
      await setKey(change);
      const before = await payoutCount();
      for (const client of [onSecond, onFirst]) {
        const res = await pay(client);
        expect(res.status, `${change}: ${JSON.stringify(res.body)}`).toBe(status);
        expect(res.body.error).toBe(error);
        // A request that fails before any statement (here: a bad amount) gets the key's refusal, not its own error.
        const bad = await client.post('/api/v1/card/payouts', { card_number: source, destination_card_number: destination, amount: -1 });
        expect(bad.status, `${change}, bad body: ${JSON.stringify(bad.body)}`).toBe(status);
        expect(bad.body.error).toBe(error);
      }
      expect(await payoutCount()).toBe(before);
      await setKey('restore');
      expect(await cardBalance(onFirst, source)).toBe(balance);
    }
    for (const client of [onSecond, onFirst]) expect((await pay(client)).status).toBe(200);
    expect(await cardBalance(onSecond, source)).toBe(balance - 200);
  });

  it('is refused by the payout statement itself when the key is revoked between lookup and statement', async () => {
    const key = await keyRow();
    const before = await payoutCount();
    await setKey('revoke');
    try {
      await expect(
        createPayout(testDb(), {
          businessId: biz.id,
          mode: 'test',
          actor: { type: 'api_key', id: String(key.id) },
          input: { card_number: source, destination_card_number: destination, amount: 100 },
        }),
      ).rejects.toMatchObject({ code: 'forbidden' });
      expect(await payoutCount()).toBe(before);
      const events = await testDb().execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM webhook_events WHERE business_id = ${biz.id} AND created_at > now() - interval '5 seconds' AND type = 'payout.success'
            AND subject_reference NOT IN (SELECT reference FROM payouts WHERE business_id = ${biz.id})`,
      );
      expect(events.rows[0].n).toBe(0);
    } finally {
      await setKey('restore');
    }
    // The same call by the key once it is usable again moves the money.
    const made = await createPayout(testDb(), {
      businessId: biz.id,
      mode: 'test',
      actor: { type: 'api_key', id: String(key.id) },
      input: { card_number: source, destination_card_number: destination, amount: 100 },
    });
    expect(made).toMatchObject({ amount: 100 });
    expect(await payoutCount()).toBe(before + 1);
  });
});
