import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../lib/db/client';
import { chapaBalancesFor } from '../lib/rails/chapa/chapa-balances';
import { readChapaConfig } from '../lib/rails/chapa/config';
import { CHAPA_TEST_SECRETS, FAST_LIVE_TIMING, startChapaFake, type ChapaFakeProcess } from './chapa-harness';
import { balanceOf, fakeTransfers, liveCard, payout, payoutStatus, transferSwitches } from './chapa-payout-fixtures';
import { waitFor } from './helpers';
import { createScratchDatabase, freePort, startTestServer, type TestServer } from './test-server';

/**
 * SIGKILL of the app between the ledger debit and Chapa's answer to the
 * transfer request, then a restart: the fake received exactly one transfer per
 * reference, and every balance is right.
 */

const ADMIN = 'adm_chapa_crash_0123456789abcdef_012345';
let fake: ChapaFakeProcess;
let server: TestServer;
let db: Db;
let endPool: () => Promise<void>;
let start: () => Promise<TestServer>;

beforeAll(async () => {
  const url = await createScratchDatabase(inject('databaseUrl'), 'chapa_payouts_crash');
  const handle = createDb(url, 4);
  db = handle.db;
  endPool = () => handle.pool.end();
  fake = await startChapaFake({ CHAPA_FAKE_TRANSFER_SETTLE_MS: '100' });
  const port = await freePort();
  start = () =>
    startTestServer({
      databaseUrl: url,
      adminToken: ADMIN,
      port,
      processGroup: true,
      env: {
        CHAPA_SECRET_KEY: CHAPA_TEST_SECRETS.secretKey,
        CHAPA_BASE_URL: `${fake.url}/v1`,
        CHAPA_WEBHOOK_SECRET: CHAPA_TEST_SECRETS.webhookSecret,
        CHAPA_APPROVAL_SECRET: CHAPA_TEST_SECRETS.approvalSecret,
        ...FAST_LIVE_TIMING,
        // Long enough for the test to kill the server while it waits for Chapa's answer.
        CHAPA_TIMEOUT_MS: '5000',
        CHAPA_LEASE_MS: '11000',
        CHAPA_RETRY_BASE_MS: '300',
        CHAPA_RETRY_MAX_MS: '1200',
      },
    });
  server = await start();
  await fake.control('/__fake/config', { webhookUrl: `${server.baseUrl}/api/providers/chapa/webhook` });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await fake?.stop();
  await endPool?.();
});

const admin = async (p: string, body: unknown) => {
  const res = await fetch(`${server.baseUrl}/api/admin${p}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`admin ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
};

const stackLike = () => ({
  baseUrl: server.baseUrl,
  fake,
  createBusiness: async (name = 'Crash business') => {
    const d = await admin('/businesses', { name });
    return { id: d.id, keys: d.api_keys };
  },
  fund: async (businessId: number, currency: string, amount: number) =>
    void (await admin(`/businesses/${businessId}/balance`, { mode: 'live', currency, amount })),
});

async function debitOf(reference: string): Promise<number> {
  const r = await db.execute<{ amount: number; service_fee: number; charge_payer: string }>(
    sql`SELECT amount, service_fee, charge_payer FROM payouts WHERE reference = ${reference}`,
  );
  const p = r.rows[0];
  return Number(p.amount) + (p.charge_payer === 'customer' ? Number(p.service_fee) : 0);
}

it('Chapa’s bank list unreadable (a fresh server, nothing cached): 502 Failed to initiate payout, nothing debited or sent', async () => {
  const s = stackLike() as any;
  const c = await liveCard(s);
  await fake.switches({ failures: { banks: { mode: '503', times: 1 } } });
  const res = await payout(c, 1_000, 'cbe', '1000123456789');
  expect(res.status, JSON.stringify(res.body)).toBe(502);
  expect(res.body.message).toBe('Failed to initiate payout');
  expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000);
  expect((await fakeTransfers(s)).requests).toEqual({});
  const rows = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM payouts WHERE business_id = ${c.businessId} AND payout_type = 'bank' AND NOT is_ledger_topup`,
  );
  expect(rows.rows[0].n).toBe(0);
}, 120_000);

it('SIGKILL before the request reached Chapa and while Chapa held it: one transfer per reference, balances right', async () => {
  const s = stackLike() as any;
  const c = await liveCard(s);

  // 1. Debited and queued, Chapa unreachable: the requests never arrive before the kill.
  await fake.switches({ failures: { transfer: { mode: '503' } } });
  const queued: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await payout(c, 1_000 + i, 'cbe', '1000123456789');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    queued.push(res.body.data.provider_reference);
  }
  await server.stop('SIGKILL');
  await fake.switches({ failures: { transfer: { mode: '503', times: 0 } } });

  // 2. Chapa takes the next request and never answers; the server dies waiting.
  server = await start();
  // The restarted worker sends the queued three first (each after asking verify), so the hang below catches only the new one.
  await waitFor(async () => {
    const requests = (await fakeTransfers(s)).requests;
    return queued.every((r) => requests[r] === 1) ? true : undefined;
  }, 60_000);
  await transferSwitches(s, { hangAfterAccept: 1 });
  const inFlight = payout(c, 2_000, 'cbe', '1000123456789').catch(() => undefined);
  const held = await waitFor(async () => Object.keys((await fakeTransfers(s)).transfers).find((r) => !queued.includes(r)), 20_000);
  await server.stop('SIGKILL');
  await inFlight;

  server = await start();
  const all = [...queued, held];
  for (const ref of all) await expect.poll(() => payoutStatus(c.live, ref), { timeout: 60_000 }).toBe('success');
  const requests = (await fakeTransfers(s)).requests;
  expect(Object.fromEntries(all.map((r) => [r, requests[r]]))).toEqual(Object.fromEntries(all.map((r) => [r, 1])));

  let debits = 0;
  for (const ref of all) debits += await debitOf(ref);
  expect(await balanceOf(c.live, c.cardNumber)).toBe(500_000 - debits);
  const { rows } = await db.execute<{ total: string; unbalanced: number }>(sql`
    SELECT (SELECT coalesce(sum(balance), 0) FROM ledger_accounts WHERE mode = 'live')::text AS total,
           (SELECT count(*) FROM (SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING sum(amount) <> 0) t)::int AS unbalanced`);
  expect(rows[0]).toEqual({ total: '0', unbalanced: 0 });
  const bank = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM rail_requests WHERE state = 'done'`);
  expect(bank.rows[0].n).toBe(all.length);

  // The only business with live money through Chapa sees Chapa's balances: what the fake held, less these transfers.
  const config = readChapaConfig({ CHAPA_SECRET_KEY: CHAPA_TEST_SECRETS.secretKey, CHAPA_BASE_URL: `${fake.url}/v1` });
  const sent = await db.execute<{ total: string }>(sql`SELECT sum(amount)::text AS total FROM rail_requests`);
  const balances = await chapaBalancesFor(db, config, c.businessId);
  expect(balances).toEqual({
    shown: true,
    balances: [
      { currency: 'ETB', available: 100_000_000 - Number(sent.rows[0].total), ledger: 100_000_000 - Number(sent.rows[0].total) },
      { currency: 'USD', available: 1_000_000, ledger: 1_000_000 },
    ],
  });
  await fake.switches({ failures: { balances: { mode: '503', times: 1 } } });
  expect(await chapaBalancesFor(db, config, c.businessId)).toEqual({
    shown: false,
    why: 'unread',
    reason: 'Chapa answered 503',
  });
}, 240_000);
