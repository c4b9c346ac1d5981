import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../lib/db/client';
import { applyMigrations } from '../../lib/db/migrate';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { startReceiver } from '../api/webhooks-receiver';
import { apiClient, randomPhone, waitFor, type ApiClient } from '../helpers';
import { getWithSession, PASSWORD, signInOverHttp } from '../owners-auth-helpers';
import { PGBOUNCER, startPgBouncer } from '../pgbouncer-process';
import { replicaPairUnavailable, type ReplicaPair, startReplicaPair } from '../replica-pair';
import { HAPROXY, startRoundRobinProxy, type RoundRobinProxy } from '../round-robin-proxy';
import { freePort, startTestServer, type TestServer } from '../test-server';

const unavailable = !fs.existsSync(HAPROXY)
  ? `no haproxy at ${HAPROXY} (apt-get install haproxy, or set HAPROXY to its path)`
  : !PGBOUNCER
    ? 'no pgbouncer binary (apt-get install pgbouncer, or set PGBOUNCER_PATH)'
    : replicaPairUnavailable();
if (unavailable) console.log(`fleet test skipped: ${unavailable}`);

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
  DATABASE_POOLER: 'transaction',
  // Wide enough that the replica stays the pages' source while its replay is paused.
  READ_REPLICA_MAX_LAG_MS: '60000',
};
/** PgBouncer's connections to the primary, for 3 x DB_POOL_SIZE app connections. */
const SERVER_CONNECTIONS = 8;
/** The test's own connections, told apart from the app's on the primary. */
const TEST_APP_NAME = 'fleet-test';
const CLIENTS = 6;
/** Each load client's pace, under its key's limit: the load is refused by nothing but a lost request. */
const PAYOUT_EVERY_MS = 250;
const FUNDS = 10_000_000;

let adminToken: string;
let pair: ReplicaPair;
let bouncer: Awaited<ReturnType<typeof startPgBouncer>>;
let primaryUrl: string;
let replicaUrl: string;
let db: Db;
let pool: pg.Pool;
let servers: TestServer[] = [];
let ports: number[] = [];
let proxy: RoundRobinProxy;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

/** Every statement through PgBouncer; LISTEN and the migrations lock on the primary itself; list pages, exports and reports off the replica. */
const start = (port: number) =>
  startTestServer({
    databaseUrl: bouncer.url,
    adminToken,
    port,
    env: { ...FLEET_ENV, DATABASE_DIRECT_URL: primaryUrl, DATABASE_READ_URL: replicaUrl },
  });

beforeAll(async () => {
  if (unavailable) return;
  adminToken = inject('adminToken');
  pair = await startReplicaPair();
  const setup = new pg.Client({ connectionString: pair.primaryUrl('postgres') });
  await setup.connect();
  await setup.query('CREATE DATABASE giftcard');
  await setup.end();
  [primaryUrl, replicaUrl] = [pair.primaryUrl('giftcard'), pair.replicaUrl('giftcard')];
  await applyMigrations(primaryUrl);
  bouncer = await startPgBouncer(primaryUrl, SERVER_CONNECTIONS);
  console.log(`fleet: primary and replica made by ${pair.how}; PgBouncer in transaction mode with ${SERVER_CONNECTIONS} server connections`);
  ({ db, pool } = createDb(`${primaryUrl}?application_name=${TEST_APP_NAME}`, 2));
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
  await bouncer?.stop();
  await pair?.stop();
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
  /** Reference of each payout answered 200, by client, with when it was sent. */
  references: { reference: string; sentAt: number }[][];
  /** Every answer that was not a 200, and every request that got no answer. */
  lost: string[];
}

/**
 * Each client sends card-to-card payouts with unique amounts and Idempotency-Keys at its pace until `until` resolves;
 * `result` fills as answers come.
 */
function payoutLoad(clients: Client[], result: LoadResult, until: Promise<void>): Promise<void> {
  let done = false;
  void until.finally(() => (done = true));
  return Promise.all(
    clients.map(async (c, i) => {
      const t0 = Date.now();
      for (let seq = 0; !done; seq++) {
        const amount = 100 + seq;
        const sentAt = Date.now();
        result.sent++;
        try {
          const res = await c.api.post(
            '/api/v1/card/payouts',
            { card_number: c.source, destination_card_number: c.destination, amount },
            { headers: { 'idempotency-key': `fleet-${i}-${seq}` } },
          );
          if (res.status === 200) {
            result.paid[i].push(amount);
            result.references[i].push({ reference: res.body.data.initiator_reference, sentAt });
          } else result.lost.push(`client ${i} payout ${seq}: ${res.status} ${JSON.stringify(res.body)}`);
        } catch (err) {
          result.lost.push(`client ${i} payout ${seq}: ${err instanceof Error ? err.message : err}`);
        }
        const wait = t0 + (seq + 1) * PAYOUT_EVERY_MS - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    }),
  ).then(() => {});
}

/** An owner of the business signed in through the proxy: their session cookie. */
async function signInOwner(admin: ApiClient, businessId: number): Promise<string> {
  const email = `fleet-owner-${businessId}-${Date.now()}@example.com`;
  expect((await admin.post(`/api/admin/businesses/${businessId}/users`, { email, password: PASSWORD, role: 'owner' })).status).toBe(201);
  return (await signInOverHttp(email, PASSWORD, undefined, proxy.url)).cookie!;
}

/** A live-update stream, read as text until it says what is wanted. */
async function openLiveStream(cookie: string) {
  const abort = new AbortController();
  const res = await fetch(`${proxy.url}/api/dashboard/live`, { headers: { cookie }, signal: abort.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let heard = '';
  return {
    async hear(text: string) {
      while (!heard.includes(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${text}: ${heard}`);
        heard += new TextDecoder().decode(value);
      }
    },
    close: () => abort.abort(),
  };
}

/** Rows of one of PgBouncer's SHOW commands on its admin console. */
async function pgbouncerShow(what: 'SERVERS' | 'STATS'): Promise<Record<string, string>[]> {
  const console = new pg.Client({ connectionString: bouncer.adminUrl });
  await console.connect();
  try {
    return (await console.query(`SHOW ${what}`)).rows;
  } finally {
    await console.end();
  }
}

/** Payouts of these businesses on one server: count and sum by business. */
async function payoutTotals(client: pg.Client | pg.Pool, businessIds: number[]): Promise<Record<number, { n: number; total: number }>> {
  const { rows } = await client.query<{ business_id: number; n: number; total: string }>(
    `SELECT business_id, count(*)::int AS n, coalesce(sum(amount), 0)::bigint AS total FROM payouts
     WHERE business_id = ANY($1::int[]) AND mode = 'test' AND payout_type = 'card_to_card' GROUP BY business_id`,
    [businessIds],
  );
  return Object.fromEntries(rows.map((r) => [r.business_id, { n: r.n, total: Number(r.total) }]));
}

describe.skipIf(!!unavailable)('three instances behind a round-robin haproxy, through PgBouncer, with a read replica', () => {
  it('a rolling restart under a payout load loses no request and no event, and every sum is exact', async () => {
    const admin = apiClient(adminToken, proxy.url);
    const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => makeClient(admin, i)));
    const cookie = await signInOwner(admin, clients[0].businessId);
    const standby = new pg.Client({ connectionString: replicaUrl });
    // A failed run stops the pair under it.
    standby.on('error', () => {});
    await standby.connect();
    const statsBefore = (await pgbouncerShow('STATS')).find((r) => r.database === 'giftcard');

    let restarted!: () => void;
    const result: LoadResult = { sent: 0, paid: clients.map(() => []), references: clients.map(() => []), lost: [] };
    const load = payoutLoad(clients, result, new Promise<void>((r) => (restarted = r)));
    const drains: number[] = [];
    try {
      for (let i = 0; i < servers.length; i++) {
        // Some load on the whole fleet first, so each instance stops with requests in flight.
        await new Promise((r) => setTimeout(r, 1_000));
        drains.push(await stopGracefully(servers[i]));
        expect(servers[i].output(), `exit ${servers[i].process.exitCode} ${servers[i].process.signalCode}`).toContain('draining:');
        servers[i] = await start(ports[i]);
        await proxy.waitFor(`app${i}`, 'UP');
      }

      // Still under load: the list pages read the replica. With its replay paused, each instance's page shows what the
      // replica had (the last payout it replayed) and not a payout answered since, and says how old its data is.
      const live = await openLiveStream(cookie);
      await live.hear('event: ready');
      const replicated = async (reference: string) =>
        (await standby.query('SELECT 1 FROM payouts WHERE reference = $1', [reference])).rowCount === 1 ? true : undefined;
      const seen = await waitFor(async () => {
        const last = result.references[0].at(-1);
        return last && (await replicated(last.reference)) ? last.reference : undefined;
      }, 20_000);
      await standby.query('SELECT pg_wal_replay_pause()');
      const pausedAt = Date.now();
      const unseen = await waitFor(async () => result.references[0].find((r) => r.sentAt > pausedAt)?.reference);
      // The live stream (LISTEN on the primary itself, from whichever instance the proxy chose) hears it, told by another through the pooler.
      await live.hear(unseen);
      // The app's connections to the primary, other than those PgBouncer holds, are the live stream's LISTEN only.
      const backends = await pool.query<{ pid: number; query: string }>(
        `SELECT pid, query FROM pg_stat_activity WHERE datname = 'giftcard' AND backend_type = 'client backend' AND application_name <> $1`,
        [TEST_APP_NAME],
      );
      // Asked second: a server connection PgBouncer opens in between shows here, not as one of the app's own.
      const pooled = new Set((await pgbouncerShow('SERVERS')).filter((r) => r.database === 'giftcard').map((r) => Number(r.remote_pid)));
      const direct = backends.rows.filter((b) => !pooled.has(b.pid));
      expect(pooled.size).toBeGreaterThan(0);
      expect(pooled.size).toBeLessThanOrEqual(SERVER_CONNECTIONS);
      expect(direct.length).toBeGreaterThan(0);
      expect(direct.map((b) => b.query.replace(/ .*/s, ''))).toEqual(direct.map(() => 'LISTEN'));
      live.close();

      const pages: string[] = [];
      for (const base of [...servers.map((s) => s.baseUrl), proxy.url]) {
        const page = await waitFor(async () => {
          const res = await getWithSession('/payouts', cookie, base);
          expect(res.status, res.text.slice(0, 300)).toBe(200);
          return res.text.includes('Data as of') ? res.text : undefined;
        }, 20_000);
        expect(page, base).toContain(seen);
        expect(page, base).not.toContain(unseen);
        pages.push(base);
      }
      const csv = await getWithSession('/payouts/export', cookie, proxy.url);
      expect(csv.status).toBe(200);
      expect(csv.text).toContain(seen);
      expect(csv.text).not.toContain(unseen);
      await standby.query('SELECT pg_wal_replay_resume()');
      console.log(
        `fleet: with the replica's replay paused ${Date.now() - pausedAt} ms, ${pages.length} list pages and an export showed its data and its age; ` +
          `the app held ${pooled.size} connections to the primary through PgBouncer and ${direct.length} of its own (LISTEN)`,
      );
    } finally {
      await standby.query('SELECT pg_wal_replay_resume()').catch(() => {});
      await new Promise((r) => setTimeout(r, 1_000));
      restarted();
      await load;
    }
    const { sent, paid, lost } = result;
    const statsAfter = (await pgbouncerShow('STATS')).find((r) => r.database === 'giftcard');
    const pooledTransactions = Number(statsAfter?.total_xact_count) - Number(statsBefore?.total_xact_count);
    console.log(
      `fleet: ${sent} payouts sent through a rolling restart of 3 instances (drains took ${drains.map((d) => `${d} ms`).join(', ')}); ` +
        `${paid.flat().length} answered 200, ${lost.length} lost; PgBouncer carried ${pooledTransactions} transactions meanwhile`,
    );
    expect(lost).toEqual([]);
    expect(paid.flat().length).toBe(sent);
    expect(sent).toBeGreaterThan(CLIENTS * 10);
    // Each payout is a transaction or more, and all of them went through the pooler.
    expect(pooledTransactions).toBeGreaterThan(sent);

    const businessIds = clients.map((c) => c.businessId);
    const onPrimary = await payoutTotals(pool, businessIds);
    for (const [i, c] of clients.entries()) {
      const total = paid[i].reduce((a, b) => a + b, 0);
      expect(onPrimary[c.businessId]).toEqual({ n: paid[i].length, total });
      expect((await c.api.get(`/api/v1/card/${c.source}`)).body.data.available_amount).toBe(FUNDS - total);
      expect((await c.api.get(`/api/v1/card/${c.destination}`)).body.data.available_amount).toBe(total);
    }
    expect((await verifyLedger(db)).problems).toEqual([]);
    // The replica catches up to the same sums.
    await waitFor(async () => (JSON.stringify(await payoutTotals(standby, businessIds)) === JSON.stringify(onPrimary) ? true : undefined), 30_000);
    await standby.end();

    // Every event of every payout (and top-up) reaches the receiver, each once at least, whichever instance sent it.
    const events = await db.execute<{ event_id: string }>(sql`
      SELECT e.event_id FROM webhook_events e
      WHERE e.business_id = ANY(${sql.param(businessIds)}::int[]) AND e.mode = 'test'`);
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
