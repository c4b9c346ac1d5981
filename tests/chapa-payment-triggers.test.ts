import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../lib/db/client';
import { CHAPA_TEST_SECRETS, startLiveStack, type LiveStack } from './chapa-harness';
import { apiClient, createCard, type ApiClient } from './helpers';
import { createScratchDatabase } from './test-server';

/**
 * Who may make the service call Chapa's verify, and what a verify must say to
 * credit: with a live key (CHASECK-...) against tools/chapa-fake, whose verify
 * then answers mode "live". The schedule waits a minute between checks, so every
 * verify the fake sees while a test runs was asked for by a trigger. Its own
 * database: another suite's live server on the same one would verify (and time
 * out) these payments against its own fake, and this one theirs.
 */

const LIVE_KEY = 'CHASECK-harnesslive0123456789abcdef';
const QUIET_SCHEDULE = { CHAPA_VERIFY_INTERVAL_MS: '60000', CHAPA_VERIFY_MAX_INTERVAL_MS: '60000' };
const ADMIN = 'adm_chapa_triggers_0123456789abcdef_012';

let stack: LiveStack;
let live: ApiClient;
let db: Db;
let endPool: () => Promise<void>;

beforeAll(async () => {
  const url = await createScratchDatabase(inject('databaseUrl'), 'chapa_triggers');
  const handle = createDb(url, 4);
  db = handle.db;
  endPool = () => handle.pool.end();
  stack = await startLiveStack({
    databaseUrl: url,
    adminToken: ADMIN,
    // Longer than any test: a request that waited for a held verify would hang, not time out into an answer.
    env: { CHAPA_SECRET_KEY: LIVE_KEY, ...QUIET_SCHEDULE, CHAPA_TIMEOUT_MS: '120000' },
    fakeEnv: { CHAPA_SECRET_KEY: LIVE_KEY },
  });
  const biz = await stack.createBusiness('Live triggers business');
  live = apiClient(biz.keys.live, stack.baseUrl);
});
afterAll(async () => {
  await stack?.stop();
  await endPool?.();
});
beforeEach(async () => {
  await stack.fake.reset();
  // Only what a test sends may reach the app: no webhook or callback of the fake's own.
  await stack.fake.switches({ webhooks: { delivery: 'off' }, callbacks: false });
});

const status = async (ref: string) => (await live.get(`/api/v1/card/payment/${ref}/status`)).body.data;
const balance = async (cardNumber: string) => (await live.get(`/api/v1/card/${cardNumber}`)).body.data.available_amount as number;
const poll = <T>(check: () => Promise<T>) => expect.poll(check, { timeout: 30_000, interval: 100 });
const verifies = async (ref: string) => (await stack.fake.state()).requests.filter((r) => r.operation === 'verify' && r.path.endsWith(ref));
const row = async (ref: string) => (await db.execute(sql`SELECT status, verify_state, verify_note FROM payments WHERE link_reference = ${ref}`)).rows[0] as any;
const ledgerRows = async (ref: string) =>
  Number(((await db.execute(sql`SELECT count(*) AS n FROM ledger_transactions WHERE reference = ${ref}`)).rows[0] as any).n);

async function paidHosted(amount: number) {
  const card = await createCard(live, 'ETB');
  const res = await live.post('/api/v1/card/payments', { type: 'hosted', amount, card_number: card.card_number });
  expect(res.status).toBe(201);
  const ref = res.body.data.link_reference as string;
  const t = (Object.values((await stack.fake.state()).stores.transactions) as any[]).find((x) => x.txRef === ref);
  await fetch(`${stack.fake.url}/checkout/payment/${t.token}/pay`, { method: 'POST', redirect: 'manual' });
  return { card, ref };
}

/** A webhook signed as Chapa signs it: the one trigger that may make the service verify at once. */
async function signedWebhook(ref: string) {
  const body = JSON.stringify({ event: 'charge.success', tx_ref: ref, status: 'success' });
  const res = await fetch(`${stack.baseUrl}/api/providers/chapa/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-chapa-signature': createHmac('sha256', CHAPA_TEST_SECRETS.webhookSecret).update(body).digest('hex') },
    body,
  });
  expect(res.status).toBe(200);
}

describe('public triggers (callback, checkout return)', () => {
  it('200 of them for one reference while Chapa is slow are all answered at once, cost a bounded number of verifies, and the payment is credited once', async () => {
    const { card, ref } = await paidHosted(12_000);
    // Every verify of the flood is held by the fake until the flood is over, and the server's Chapa timeout is longer
    // than the test's: a trigger that waited for its verify would never be answered, so the flood could not finish.
    const held = Array.from({ length: 40 }, () => ({ status: 'pending', gate: 'flood' }));
    await stack.fake.switches({ verifyScript: { [ref]: held }, verifyOverride: { [ref]: { status: 'pending' } } });
    const started = Date.now();
    const latencies: number[] = [];
    // Ten senders, each sending its next request as soon as the last one is answered: one per round trip.
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let i = 0; i < 20; i++) {
          const url =
            i % 10 === 9 ? `${stack.baseUrl}/checkout/${ref}?from=chapa` : `${stack.baseUrl}/api/providers/chapa/callback?trx_ref=${ref}&status=success`;
          const t0 = Date.now();
          const res = await fetch(url);
          await res.text();
          latencies.push(Date.now() - t0);
          expect(res.status).toBe(200);
        }
      }),
    );
    const elapsed = Date.now() - started;
    latencies.sort((a, b) => a - b);
    console.log(
      `200 public triggers in ${elapsed} ms; latency median ${latencies[100]} ms, max ${latencies[199]} ms; verifies ${(await verifies(ref)).length}`,
    );
    // All 200 were answered while the flood's verify was still held at the gate: none waited for it.
    expect((await verifies(ref)).length).toBeGreaterThanOrEqual(1);
    await stack.fake.control('/__fake/gates/open', { name: 'flood' });
    // At most one publicly triggered verify per 10 s, plus the one that may be running.
    expect((await verifies(ref)).length).toBeLessThanOrEqual(2 + Math.ceil(elapsed / 10_000));
    expect((await status(ref)).status).toBe('pending');

    // Chapa now says paid: the next public trigger gets its verify at the next free slot, which credits once.
    await stack.fake.switches({ verifyScript: { [ref]: [] }, verifyOverride: { [ref]: {} } });
    expect((await fetch(`${stack.baseUrl}/api/providers/chapa/callback?trx_ref=${ref}`)).status).toBe(200);
    await poll(async () => (await status(ref)).status).toBe('success');
    expect(await balance(card.card_number)).toBe(12_000);
    expect(await ledgerRows(ref)).toBe(1);
    expect((await verifies(ref)).length).toBeLessThanOrEqual(4 + Math.ceil((Date.now() - started) / 10_000));
  });

  it('never ask Chapa about a payment that already failed; a signed webhook still may', async () => {
    const card = await createCard(live, 'ETB');
    const res = await live.post('/api/v1/card/payments', { type: 'hosted', amount: 1_300, card_number: card.card_number });
    const ref = res.body.data.link_reference as string;
    const t = (Object.values((await stack.fake.state()).stores.transactions) as any[]).find((x) => x.txRef === ref);
    await fetch(`${stack.fake.url}/checkout/payment/${t.token}/decline`, { method: 'POST', redirect: 'manual' });
    await signedWebhook(ref);
    await poll(async () => (await status(ref)).status).toBe('failed');
    const asked = (await verifies(ref)).length;
    await Promise.all(Array.from({ length: 20 }, () => fetch(`${stack.baseUrl}/api/providers/chapa/callback?trx_ref=${ref}`).then((r) => r.text())));
    expect((await fetch(`${stack.baseUrl}/checkout/${ref}?from=chapa`)).status).toBe(200);
    expect((await verifies(ref)).length).toBe(asked);
    await signedWebhook(ref);
    expect((await verifies(ref)).length).toBe(asked + 1);
  });
});

describe('verify’s mode', () => {
  it('a live key credits on a live verify only: a verify answering mode "test" credits nothing and says why', async () => {
    expect(stack.server.output()).not.toContain('CHAPA_SECRET_KEY is a test key');
    const { card, ref } = await paidHosted(2_500);
    await stack.fake.switches({ verifyOverride: { [ref]: { mode: 'test' } } });
    await signedWebhook(ref);
    await poll(async () => (await row(ref)).verify_state).toBe('mode_mismatch');
    expect((await row(ref)).verify_note).toBe(`Chapa's verify answered mode "test" to a live key; nothing was credited.`);
    expect((await status(ref)).status).toBe('pending');
    expect(await balance(card.card_number)).toBe(0);

    await stack.fake.switches({ verifyOverride: { [ref]: {} } });
    await signedWebhook(ref);
    await poll(async () => (await status(ref)).status).toBe('success');
    expect(await balance(card.card_number)).toBe(2_500);
    expect(await ledgerRows(ref)).toBe(1);
  });
});
