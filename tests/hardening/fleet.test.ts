import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../lib/db/client';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { startReceiver } from '../api/webhooks-receiver';
import { apiClient, randomPhone, type ApiClient } from '../helpers';
import { PASSWORD, signInOverHttp } from '../owners-auth-helpers';
import { HAPROXY, startRoundRobinProxy, type RoundRobinProxy } from '../round-robin-proxy';
import { createScratchDatabase, freePort, startTestServer, type TestServer } from '../test-server';

const haproxyFound = fs.existsSync(HAPROXY);
if (!haproxyFound) console.log(`fleet test skipped: no haproxy at ${HAPROXY} (apt-get install haproxy, or set HAPROXY to its path)`);

/** One API key's fleet-wide limit: 5 per second after a burst of 60. */
const PER_SECOND = 5;
const BURST = 60;
const ADMIN_ATTEMPTS_PER_MINUTE = 10;
const STREAMS_PER_SESSION = 4;
const FLEET_ENV = {
  RATE_LIMIT_PER_SECOND: String(PER_SECOND),
  RATE_LIMIT_BURST: String(BURST),
  RATE_LIMIT_HOLD_MS: '1',
  ADMIN_TOKEN_ATTEMPTS_PER_MINUTE: String(ADMIN_ATTEMPTS_PER_MINUTE),
  SHUTDOWN_SETTLE_MS: '1000',
  SHUTDOWN_GRACE_MS: '8000',
  WEBHOOK_RETRY_SCHEDULE: '200,500,1000,2000,5000',
  DB_POOL_SIZE: '5',
  LIVE_STREAMS_PER_SESSION: String(STREAMS_PER_SESSION),
};
const CLIENTS = 6;
/** Each load client's pace, under its key's limit: the load is refused by nothing but a lost request. */
const PAYOUT_EVERY_MS = 250;
const FUNDS = 10_000_000;

let adminToken: string;
let databaseUrl: string;
let db: Db;
let pool: { end(): Promise<void> };
let servers: TestServer[] = [];
let ports: number[] = [];
let proxy: RoundRobinProxy;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const start = (port: number) => startTestServer({ databaseUrl, adminToken, port, env: FLEET_ENV });

beforeAll(async () => {
  if (!haproxyFound) return;
  adminToken = inject('adminToken');
  databaseUrl = await createScratchDatabase(inject('databaseUrl'), 'fleet');
  ({ db, pool } = createDb(databaseUrl, 2));
  receiver = await startReceiver();
  ports = [await freePort(), await freePort(), await freePort()];
  servers = await Promise.all(ports.map(start));
  proxy = await startRoundRobinProxy(ports.map((port, i) => ({ name: `app${i}`, port })));
}, 180_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all(servers.map((s) => s.stop()));
  await receiver?.close();
  await pool?.end();
});

/** SIGTERM, and wait until the process has drained and exited. */
async function stopGracefully(server: TestServer): Promise<number> {
  const started = Date.now();
  // 'close', not 'exit': the process's last lines are read by then.
  const exited = new Promise<void>((resolve) => server.process.once('close', () => resolve()));
  await server.stop('SIGTERM');
  await exited;
  return Date.now() - started;
}

interface Client {
  api: ApiClient;
  businessId: number;
  source: string;
  destination: string;
}

async function makeClient(admin: ApiClient, i: number): Promise<Client> {
  const made = await admin.post('/api/admin/businesses', { name: `Fleet ${i}` });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const { id, api_keys } = made.body.data;
  expect((await admin.put(`/api/admin/businesses/${id}/webhook`, { mode: 'test', url: `${receiver.url}/fleet/${i}` })).status).toBe(200);
  const funded = await admin.post(`/api/admin/businesses/${id}/balance`, { mode: 'test', currency: 'ETB', amount: FUNDS });
  expect(funded.status, JSON.stringify(funded.body)).toBe(200);
  const api = apiClient(api_keys.test, proxy.url);
  const card = async () => {
    const res = await api.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Fleet', last_name: `Client ${i}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.card_number as string;
  };
  const [source, destination] = [await card(), await card()];
  const topUp = await api.post('/api/v1/transfers', { amount: FUNDS, bank_slug: 'link', account_number: source, account_name: 'Top-up' });
  expect(topUp.status, JSON.stringify(topUp.body)).toBe(200);
  const settled = await api.post(`/api/v1/test-helpers/payouts/${topUp.body.data.provider_reference}/settle`, { status: 'success' });
  expect(settled.body.data.status).toBe('success');
  return { api, businessId: id, source, destination };
}

interface LoadResult {
  sent: number;
  /** Amount of each payout answered 200, by client. */
  paid: number[][];
  /** Every answer that was not a 200, and every request that got no answer. */
  lost: string[];
}

/** Each client sends card-to-card payouts with unique amounts and Idempotency-Keys at its pace until `until` resolves. */
function payoutLoad(clients: Client[], until: Promise<void>): Promise<LoadResult> {
  let done = false;
  void until.finally(() => (done = true));
  const result: LoadResult = { sent: 0, paid: clients.map(() => []), lost: [] };
  return Promise.all(
    clients.map(async (c, i) => {
      const t0 = Date.now();
      for (let seq = 0; !done; seq++) {
        const amount = 100 + seq;
        result.sent++;
        try {
          const res = await c.api.post(
            '/api/v1/card/payouts',
            { card_number: c.source, destination_card_number: c.destination, amount },
            { headers: { 'idempotency-key': `fleet-${i}-${seq}` } },
          );
          if (res.status === 200) result.paid[i].push(amount);
          else result.lost.push(`client ${i} payout ${seq}: ${res.status} ${JSON.stringify(res.body)}`);
        } catch (err) {
          result.lost.push(`client ${i} payout ${seq}: ${err instanceof Error ? err.message : err}`);
        }
        const wait = t0 + (seq + 1) * PAYOUT_EVERY_MS - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    }),
  ).then(() => result);
}

describe.skipIf(!haproxyFound)('three instances behind a round-robin haproxy', () => {
  it('a rolling restart under a payout load loses no request and no event, and every sum is exact', async () => {
    const admin = apiClient(adminToken, proxy.url);
    const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => makeClient(admin, i)));

    let restarted!: () => void;
    const load = payoutLoad(clients, new Promise<void>((r) => (restarted = r)));
    const drains: number[] = [];
    for (let i = 0; i < servers.length; i++) {
      // Some load on the whole fleet first, so each instance stops with requests in flight.
      await new Promise((r) => setTimeout(r, 1_000));
      drains.push(await stopGracefully(servers[i]));
      expect(servers[i].output(), `exit ${servers[i].process.exitCode} ${servers[i].process.signalCode}`).toContain('draining:');
      servers[i] = await start(ports[i]);
      await proxy.waitFor(`app${i}`, 'UP');
    }
    await new Promise((r) => setTimeout(r, 1_000));
    restarted();
    const { sent, paid, lost } = await load;
    console.log(
      `fleet: ${sent} payouts sent through a rolling restart of 3 instances (drains took ${drains.map((d) => `${d} ms`).join(', ')}); ` +
        `${paid.flat().length} answered 200, ${lost.length} lost`,
    );
    expect(lost).toEqual([]);
    expect(paid.flat().length).toBe(sent);
    expect(sent).toBeGreaterThan(CLIENTS * 10);

    for (const [i, c] of clients.entries()) {
      const total = paid[i].reduce((a, b) => a + b, 0);
      const rows = await db.execute<{ n: number; total: number }>(sql`
        SELECT count(*)::int AS n, coalesce(sum(amount), 0)::bigint AS total FROM payouts
        WHERE business_id = ${c.businessId} AND mode = 'test' AND payout_type = 'card_to_card'`);
      expect(rows.rows[0]).toEqual({ n: paid[i].length, total });
      expect((await c.api.get(`/api/v1/card/${c.source}`)).body.data.available_amount).toBe(FUNDS - total);
      expect((await c.api.get(`/api/v1/card/${c.destination}`)).body.data.available_amount).toBe(total);
    }
    expect((await verifyLedger(db)).problems).toEqual([]);

    // Every event of every payout (and top-up) reaches the receiver, each once at least, whichever instance sent it.
    const events = await db.execute<{ event_id: string }>(sql`
      SELECT e.event_id FROM webhook_events e
      WHERE e.business_id = ANY(${sql.param(clients.map((c) => c.businessId))}::int[]) AND e.mode = 'test'`);
    expect(events.rows.length).toBe(paid.flat().length + CLIENTS);
    const wanted = new Set(events.rows.map((r) => r.event_id));
    await receiver.waitFor((requests) => {
      const got = new Set(requests.map((r) => String(r.headers['webhook-id'])));
      return [...wanted].every((id) => got.has(id));
    }, 60_000);
  }, 240_000);

  it("one API key's limit holds across the fleet: over it, 429 at the fleet's limit, not three times it", async () => {
    const admin = apiClient(adminToken, proxy.url);
    const made = await admin.post('/api/admin/businesses', { name: 'Fleet limit' });
    const api = apiClient(made.body.data.api_keys.test, proxy.url);
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 4 * BURST }, () => api.get('/api/v1/banks')));
    const seconds = (Date.now() - started) / 1000;
    const ok = answers.filter((a) => a.status === 200).length;
    const limited = answers.filter((a) => a.status === 429).length;
    console.log(`fleet limit: ${ok} of ${answers.length} answered 200 and ${limited} 429 in ${seconds.toFixed(2)} s (burst ${BURST}, ${PER_SECOND}/s)`);
    expect(ok + limited).toBe(answers.length);
    // The one bucket's burst and what refilled meanwhile; each instance apart would have let BURST through.
    expect(ok).toBeLessThanOrEqual(BURST + Math.ceil(PER_SECOND * seconds));
    expect(ok).toBeGreaterThanOrEqual(BURST - servers.length);
  });

  it("one session's live streams are capped across the fleet, wherever the balancer sends each", async () => {
    const admin = apiClient(adminToken, proxy.url);
    const made = await admin.post('/api/admin/businesses', { name: 'Fleet streams' });
    const email = `fleet-streams-${Date.now()}@example.com`;
    expect((await admin.post(`/api/admin/businesses/${made.body.data.id}/users`, { email, password: PASSWORD, role: 'owner' })).status).toBe(201);
    const { cookie } = await signInOverHttp(email, PASSWORD, undefined, proxy.url);
    const open: AbortController[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < STREAMS_PER_SESSION + 2; i++) {
      const abort = new AbortController();
      const res = await fetch(`${proxy.url}/api/dashboard/live`, { headers: { cookie: cookie! }, signal: abort.signal });
      statuses.push(res.status);
      if (res.status === 200) open.push(abort);
      else await res.text();
    }
    for (const a of open) a.abort();
    // Round robin spread them over the three instances; each counting alone would have opened all six.
    expect(statuses).toEqual([...Array(STREAMS_PER_SESSION).fill(200), 429, 429]);
  });

  it('wrong back office tokens are counted fleet-wide', async () => {
    const wrong = apiClient('adm_wrong_token', proxy.url);
    const answers = [];
    for (let i = 0; i < 3 * ADMIN_ATTEMPTS_PER_MINUTE; i++) answers.push((await wrong.post('/api/admin/businesses', { name: 'Nope' })).status);
    expect(answers.filter((s) => s === 401).length, answers.join(' ')).toBe(ADMIN_ATTEMPTS_PER_MINUTE);
    expect(answers.filter((s) => s === 429).length).toBe(2 * ADMIN_ATTEMPTS_PER_MINUTE);
  });
});
