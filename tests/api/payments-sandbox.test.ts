import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, createCard, createTestBusiness, randomPhone, testDb, type ApiClient, type TestBusiness } from '../helpers';
import { startTestServer, type TestServer } from '../test-server';

const SETTLE_AFTER_MS = 400;

/** A second server whose sandbox settles direct charges by itself, as the default (3000 ms) does. */
describe(`sandbox wallet rail with TEST_SETTLE_AFTER_MS=${SETTLE_AFTER_MS}`, () => {
  let server: TestServer;
  let biz: TestBusiness;
  let client: ApiClient;
  beforeAll(async () => {
    server = await startTestServer({
      databaseUrl: inject('databaseUrl'),
      adminToken: inject('adminToken'),
      env: { TEST_SETTLE_AFTER_MS: String(SETTLE_AFTER_MS) },
      // Its own sandbox settlement (the shared server's never settles by itself); every other loop is the shared server's.
      loops: ['payment-settlement'],
    });
    biz = await createTestBusiness('Sandbox wallet shop');
    client = apiClient(biz.keys.test, server.baseUrl);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const charge = async (cardNumber: string, phone: string, amount: number) => {
    const res = await client.post('/api/v1/card/payments', {
      type: 'direct-charge',
      amount,
      card_number: cardNumber,
      phone_number: phone,
      payment_method: 'telebirr',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.link_reference as string;
  };
  const status = async (ref: string) => (await client.get(`/api/v1/card/payment/${ref}/status`)).body.data;

  it('settles a direct charge by itself, once, crediting the card and writing payment.success', async () => {
    const card = await createCard(biz.test);
    const started = Date.now();
    const ref = await charge(card.card_number, randomPhone(), 2500);
    expect((await status(ref)).status).toBe('pending');
    await expect.poll(async () => (await status(ref)).status, { timeout: 60_000, interval: 100 }).toBe('success');
    const elapsed = Date.now() - started;
    console.log(`direct charge settled by the sandbox ${elapsed} ms after creation (TEST_SETTLE_AFTER_MS=${SETTLE_AFTER_MS})`);
    expect(elapsed).toBeGreaterThanOrEqual(SETTLE_AFTER_MS);
    const settled = await status(ref);
    expect(settled.provider_reference).toMatch(/^prc_/);
    expect((await biz.test.get(`/api/v1/card/${card.card_number}`)).body.data.available_amount).toBe(2500);
    const events = await testDb().execute<{ type: string }>(sql`SELECT type FROM webhook_events WHERE subject_reference = ${ref}`);
    expect(events.rows.map((e) => e.type)).toEqual(['payment.success']);
  });

  it('fails a direct charge to a phone number ending in 0000, moving no money', async () => {
    const card = await createCard(biz.test);
    const ref = await charge(card.card_number, `+25191${randomInt(100, 1000)}0000`, 2500);
    await expect.poll(async () => (await status(ref)).status, { timeout: 60_000, interval: 100 }).toBe('failed');
    expect((await biz.test.get(`/api/v1/card/${card.card_number}`)).body.data.available_amount).toBe(0);
    const events = await testDb().execute<{ type: string }>(sql`SELECT type FROM webhook_events WHERE subject_reference = ${ref}`);
    expect(events.rows.map((e) => e.type)).toEqual(['payment.failed']);
  });

  it('leaves a hosted payment pending for its checkout page', async () => {
    const card = await createCard(biz.test);
    const res = await client.post('/api/v1/card/payments', { type: 'hosted', amount: 1000, card_number: card.card_number });
    expect(res.body.data.checkout_url.startsWith(server.baseUrl)).toBe(true);
    const ref = res.body.data.link_reference;
    // A direct charge created after it settles first: the loop has run past the hosted payment's creation.
    const probe = await charge(card.card_number, randomPhone(), 100);
    await expect.poll(async () => (await status(probe)).status, { timeout: 60_000, interval: 100 }).toBe('success');
    expect((await status(ref)).status).toBe('pending');
  });
});
