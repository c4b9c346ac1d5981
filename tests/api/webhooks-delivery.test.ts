import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../lib/db/client';
import { startReceiver } from './webhooks-receiver';
import { createScratchDatabase, freePort, startTestServer, type TestServer } from '../test-server';
import { emitPaymentEvent } from '../webhook-events';

/**
 * Delivery under process death, competition and one business's flood. Each
 * suite has a database of its own so that the shared test server's worker
 * cannot deliver its events.
 */

const ADMIN = 'adm_crash_token_0123456789abcdef';
/** The events are written straight into the outbox: the servers here need only the delivery worker. */
const DELIVERY = ['webhook-delivery'];

async function setUpBusiness(server: TestServer, receiverUrl: string, name = 'Crash test'): Promise<number> {
  const call = (method: string, path: string, body: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const created = await call('POST', '/api/admin/businesses', { name });
  await call('PUT', `/api/admin/businesses/${created.data.id}/webhook`, { mode: 'test', url: `${receiverUrl}/hook` });
  return created.data.id;
}

const emit = emitPaymentEvent;

async function deliveryStates(db: Db): Promise<Record<string, number>> {
  const { rows } = await db.execute<{ state: string; n: number }>(sql`SELECT state, count(*)::int AS n FROM webhook_deliveries GROUP BY state`);
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

describe('retries', () => {
  let db: Db;
  let end: () => Promise<void>;
  let server: TestServer;
  beforeAll(async () => {
    const url = await createScratchDatabase(inject('databaseUrl'), 'webhooks_retries');
    const handle = createDb(url, 4);
    db = handle.db;
    end = () => handle.pool.end();
    server = await startTestServer({
      databaseUrl: url,
      adminToken: ADMIN,
      processGroup: true,
      env: { WEBHOOK_RETRY_SCHEDULE: '100,150,200,250,300,350,400' },
      loops: DELIVERY,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await end?.();
  });

  it('a receiver answering 500 five times then 200 gets the event on attempt 6, with the same webhook-id', async () => {
    let calls = 0;
    const receiver = await startReceiver((r) => (r.path === '/hook' && ++calls <= 5 ? { status: 500, body: 'boom' } : { status: 200 }));
    try {
      const businessId = await setUpBusiness(server, receiver.url);
      const id = await emit(db, businessId, 1);
      await receiver.waitFor((rs) => rs.filter((r) => r.path === '/hook').length >= 6);
      const mine = receiver.requests.filter((r) => r.path === '/hook');
      expect(mine.map((r) => r.headers['webhook-id'])).toEqual(Array(6).fill(id));
      expect(new Set(mine.map((r) => r.body.toString())).size).toBe(1);
      await new Promise((r) => setTimeout(r, 600));
      expect(receiver.requests.filter((r) => r.path === '/hook')).toHaveLength(6);
      // A loopback receiver's status codes are kept for the back office only (private_detail).
      const { rows } = await db.execute<{ status_code: number; state: string }>(sql`
        SELECT coalesce((a.private_detail->>'status_code')::int, a.status_code) AS status_code, d.state FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.kind = 'business' ORDER BY a.id`);
      expect(rows.map((r) => r.status_code)).toEqual([500, 500, 500, 500, 500, 200]);
      expect(rows[0].state).toBe('delivered');
    } finally {
      await receiver.close();
    }
  });
});

describe('ten SIGKILLs while events are pending or backing off', () => {
  it('delivers every committed event after restarts, none lost', async () => {
    const url = await createScratchDatabase(inject('databaseUrl'), 'webhooks_crash');
    const { db, pool } = createDb(url, 4);
    const answered = new Set<string>();
    let first = new Set<string>();
    // Every third event fails its first attempt, so some are always backing off when the process dies.
    const receiver = await startReceiver(async (r) => {
      const id = String(r.headers['webhook-id']);
      await new Promise((res) => setTimeout(res, 15));
      if (id.charCodeAt(id.length - 1) % 3 === 0 && !first.has(id)) {
        first.add(id);
        return { status: 503 };
      }
      answered.add(id);
      return { status: 200 };
    });
    const port = await freePort();
    const env = { WEBHOOK_RETRY_SCHEDULE: Array(20).fill(300).join(','), WEBHOOK_TIMEOUT_MS: '2000' };
    const start = () => startTestServer({ databaseUrl: url, adminToken: ADMIN, port, processGroup: true, env, loops: DELIVERY });
    let server = await start();
    const committed: string[] = [];
    let pendingAtKills = 0;
    try {
      const businessId = await setUpBusiness(server, receiver.url);
      let n = 0;
      for (let kill = 0; kill < 10; kill++) {
        for (let i = 0; i < 25; i++) committed.push(await emit(db, businessId, n++));
        await new Promise((r) => setTimeout(r, 50 + kill * 30));
        pendingAtKills += (await deliveryStates(db)).pending ?? 0;
        await server.stop('SIGKILL');
        // Events keep committing while no instance is up.
        for (let i = 0; i < 5; i++) committed.push(await emit(db, businessId, n++));
        server = await start();
      }
      expect(pendingAtKills).toBeGreaterThan(0);
      await receiver.waitFor(() => committed.every((id) => answered.has(id)), 90_000);
      await expect.poll(async () => deliveryStates(db), { timeout: 30_000 }).toEqual({ delivered: committed.length * 2 });
      const { rows } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM received_webhooks`);
      expect(rows[0].n).toBe(committed.length);
    } finally {
      await server.stop();
      await receiver.close();
      await pool.end();
      first = new Set();
    }
  }, 170_000);
});

describe('two app instances on one database', () => {
  it('share the outbox: every event delivered, never twice at the same time', async () => {
    const url = await createScratchDatabase(inject('databaseUrl'), 'webhooks_two');
    const { db, pool } = createDb(url, 4);
    const inFlight = new Set<string>();
    const counts = new Map<string, number>();
    let overlaps = 0;
    const receiver = await startReceiver(async (r) => {
      const id = String(r.headers['webhook-id']);
      if (r.path !== '/hook') return { status: 200 };
      if (inFlight.has(id)) overlaps++;
      inFlight.add(id);
      counts.set(id, (counts.get(id) ?? 0) + 1);
      await new Promise((res) => setTimeout(res, 20));
      inFlight.delete(id);
      return { status: 200 };
    });
    // One after the other: two first starts on an empty database race on the demo seed.
    const a = await startTestServer({ databaseUrl: url, adminToken: ADMIN, processGroup: true, loops: DELIVERY });
    const b = await startTestServer({ databaseUrl: url, adminToken: ADMIN, processGroup: true, loops: DELIVERY });
    try {
      const businessId = await setUpBusiness(a, receiver.url);
      const ids = await Promise.all(Array.from({ length: 300 }, (_, i) => emit(db, businessId, i)));
      await receiver.waitFor(() => ids.every((id) => counts.has(id)), 60_000);
      await expect.poll(async () => deliveryStates(db), { timeout: 20_000 }).toEqual({ delivered: 600 });
      expect(overlaps).toBe(0);
      expect([...counts.values()].every((c) => c === 1)).toBe(true);
      expect(counts.size).toBe(300);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await receiver.close();
      await pool.end();
    }
  }, 120_000);
});

describe('one business flooding its slow receiver', () => {
  it("neither delays another business's event behind the flood nor takes more than half the worker", async () => {
    const url = await createScratchDatabase(inject('databaseUrl'), 'webhooks_fair');
    const { db, pool } = createDb(url, 4);
    let inFlight = 0;
    let mostInFlight = 0;
    const slow = await startReceiver(async () => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await new Promise((res) => setTimeout(res, 500));
      inFlight--;
      return { status: 200 };
    });
    const quick = await startReceiver();
    const server = await startTestServer({ databaseUrl: url, adminToken: ADMIN, processGroup: true, loops: DELIVERY });
    try {
      const flooder = await setUpBusiness(server, slow.url, 'Flooder');
      const other = await setUpBusiness(server, quick.url, 'Other');
      const FLOOD = 400;
      for (let i = 0; i < FLOOD; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => emit(db, flooder, i + j)));
      await slow.waitFor((rs) => rs.length > 0);
      const sentAt = Date.now();
      const id = await emit(db, other, FLOOD);
      await quick.waitFor((rs) => rs.some((r) => r.headers['webhook-id'] === id), 10_000);
      const waited = Date.now() - sentAt;
      const floodServed = slow.requests.length;
      console.log(
        `fairness: the other business's event arrived after ${waited} ms, with ${floodServed} of ${FLOOD} flood events served; at most ${mostInFlight} flood deliveries in flight`,
      );
      // First come, first served would have sent it only after every flood event was taken (the worker has room for all 400 at once).
      expect(floodServed).toBeLessThan(FLOOD / 2);
      expect(mostInFlight).toBeLessThanOrEqual(32);
      await slow.waitFor((rs) => rs.length >= FLOOD, 60_000);
      expect(mostInFlight).toBeLessThanOrEqual(32);
    } finally {
      await server.stop();
      await Promise.all([slow.close(), quick.close()]);
      await pool.end();
    }
  }, 120_000);
});
