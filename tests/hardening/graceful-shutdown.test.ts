import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createDb } from '../../lib/db/client';
import { startReceiver } from '../api/webhooks-receiver';
import { apiClient, createTestBusiness, randomPhone, waitFor, type TestBusiness } from '../helpers';
import { PASSWORD, signInOverHttp, userOf } from '../owners-auth-helpers';
import { createScratchDatabase, startTestServer, type TestServer } from '../test-server';

let biz: TestBusiness;
let server: TestServer;

beforeAll(async () => {
  biz = await createTestBusiness('Graceful shutdown');
  server = await startTestServer({ databaseUrl: inject('databaseUrl'), adminToken: inject('adminToken'), env: { SHUTDOWN_SETTLE_MS: '1500' } });
});
afterAll(() => server?.stop());

/** A live stream read as text until it ends. */
async function readStream(base: string, cookie: string, onReady: () => void): Promise<string> {
  const res = await fetch(`${base}/api/dashboard/live`, { headers: { cookie } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += Buffer.from(value).toString('utf8');
    if (text.includes('event: ready')) onReady();
  }
}

/** A POST whose body arrives in two parts: the request is in flight between them. */
function slowPost(port: number, path: string, key: string, body: string) {
  const req = http.request({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  return { finish: () => req.end(body.slice(10)), answer };
}

describe('readiness and SIGTERM', () => {
  it('/api/ready answers ready with its checks while the instance serves', async () => {
    const res = await fetch(`${server.baseUrl}/api/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { database: true, migrations: true, workers: true, draining: false } });
  });

  it('on SIGTERM: ready turns 503 while health stays 200, live streams are told to reconnect, a request in flight is answered, then it exits', async () => {
    const owner = await userOf(biz.id, 'owner');
    const { cookie } = await signInOverHttp(owner.email, PASSWORD, undefined, server.baseUrl);
    let streamReady!: () => void;
    const ready = new Promise<void>((r) => (streamReady = r));
    const stream = readStream(server.baseUrl, cookie!, streamReady);
    await ready;
    const inFlight = slowPost(server.port, '/api/v1/card', biz.keys.test, JSON.stringify({ phone_number: randomPhone(), currency: 'ETB', first_name: 'Late' }));
    const exited = new Promise<number | null>((r) => server.process.once('exit', (code) => r(code)));

    server.process.kill('SIGTERM');
    const draining = await waitFor(async () => {
      const res = await fetch(`${server.baseUrl}/api/ready`);
      return res.status === 503 ? ((await res.json()) as { checks: { draining: boolean } }) : undefined;
    });
    expect(draining.checks.draining).toBe(true);
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    expect(await stream).toContain('event: reconnect');

    // The port closes after the settle time; the request that was in flight still gets its answer, with the connection closed after it.
    await waitFor(async () => (server.output().includes('draining:') ? true : undefined));
    inFlight.finish();
    const answer = await inFlight.answer;
    expect(answer.status, answer.body).toBe(201);
    expect(answer.connection).toBe('close');
    expect(await exited).toBe(0);
    await expect(fetch(`${server.baseUrl}/api/health`)).rejects.toThrow();
  });
});

describe('a webhook delivery in flight at SIGTERM', () => {
  it('is handed back due at once, not left leased for its timeout', async () => {
    const databaseUrl = await createScratchDatabase(inject('databaseUrl'), 'handback');
    const { db, pool } = createDb(databaseUrl, 1);
    // The receiver holds every request open: the attempt is still in flight when the server stops.
    const receiver = await startReceiver(() => new Promise(() => {}));
    const own = await startTestServer({ databaseUrl, adminToken: inject('adminToken'), env: { WEBHOOK_TIMEOUT_MS: '60000' } });
    try {
      const admin = apiClient(inject('adminToken'), own.baseUrl);
      const made = await admin.post('/api/admin/businesses', { name: 'Hand back' });
      const { id, api_keys } = made.body.data;
      expect((await admin.put(`/api/admin/businesses/${id}/webhook`, { mode: 'test', url: `${receiver.url}/held` })).status).toBe(200);
      expect((await admin.post(`/api/admin/businesses/${id}/balance`, { mode: 'test', currency: 'ETB', amount: 1000 })).status).toBe(200);
      const api = apiClient(api_keys.test, own.baseUrl);
      const card = await api.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Held' });
      const topUp = await api.post('/api/v1/transfers', {
        amount: 1000,
        bank_slug: 'link',
        account_number: card.body.data.card_number,
        account_name: 'Top-up',
      });
      await api.post(`/api/v1/test-helpers/payouts/${topUp.body.data.provider_reference}/settle`, { status: 'success' });
      await receiver.waitFor((requests) => requests.some((r) => r.path === '/held'));

      const exited = new Promise<void>((r) => own.process.once('close', () => r()));
      own.process.kill('SIGTERM');
      await exited;
      const { rows } = await db.execute<{ state: string; attempts: number; due: boolean }>(sql`
        SELECT d.state, d.attempts, d.next_attempt_at <= now() AS due FROM webhook_deliveries d
        JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.kind = 'business' AND w.business_id = ${id}`);
      // Leased, it would wait out the 60 s timeout and 5 s more before another instance could send it.
      expect(rows).toEqual([{ state: 'pending', attempts: 1, due: true }]);
    } finally {
      await own.stop();
      await receiver.close();
      await pool.end();
    }
  });
});
