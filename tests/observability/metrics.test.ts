import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../lib/db/client';
import { apiClient, randomPhone, waitFor, type ApiClient } from '../helpers';
import { signInOverHttp } from '../owners-auth-helpers';
import { createScratchDatabase, startTestServer, type TestServer } from '../test-server';

const TOKEN = 'metrics-token-for-tests-0123456789';
// Failed deliveries stay pending for the outbox figures.
const RETRY_MS = 600_000;

// A database and server of their own: every figure on this /metrics comes from this file's requests and no other instance's work.
let server: TestServer;
let db: ReturnType<typeof createDb>;
let admin: ApiClient;
let key: ApiClient;
let businessId: number;
beforeAll(async () => {
  const url = await createScratchDatabase(inject('databaseUrl'), 'obs_metrics');
  db = createDb(url, 2);
  server = await startTestServer({
    databaseUrl: url,
    adminToken: inject('adminToken'),
    env: { METRICS_TOKEN: TOKEN, WEBHOOK_RETRY_SCHEDULE: String(RETRY_MS) },
  });
  admin = apiClient(inject('adminToken'), server.baseUrl);
  const biz = await admin.post('/api/admin/businesses', { name: 'Metrics' });
  expect(biz.status).toBe(201);
  businessId = biz.body.data.id;
  key = apiClient(biz.body.data.api_keys.test, server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
  await db?.pool.end();
});

async function scrape(): Promise<string> {
  const res = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** A sample's value from Prometheus text: `name{labels}` with the labels in the order given; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const found = /\{([^}]*)\}/.exec(line)?.[1].split(',') ?? [];
    if (wanted.every((w) => found.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

const waitForSample = (name: string, labels: Record<string, string>, ok: (v: number) => boolean) =>
  waitFor(async () => {
    const v = sample(await scrape(), name, labels);
    return v !== undefined && ok(v) ? v : undefined;
  });

async function fundedCard(amount: number): Promise<string> {
  const card = await key.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Metrics' });
  expect(card.status).toBe(201);
  const cardNumber = card.body.data.card_number as string;
  expect((await admin.post(`/api/admin/businesses/${businessId}/balance`, { mode: 'test', currency: 'ETB', amount })).status).toBe(200);
  const t = await key.post('/api/v1/transfers', { amount, bank_slug: 'link', account_number: cardNumber, account_name: 'Top-up' });
  expect(t.status, JSON.stringify(t.body)).toBe(200);
  const s = await key.post(`/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, { status: 'success' });
  expect(s.body.data.status).toBe('success');
  return cardNumber;
}

describe('GET /metrics', () => {
  it('is not found while METRICS_TOKEN is unset', async () => {
    const res = await fetch(`${inject('baseUrl')}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: 'error', message: 'Not found', error: 'Nothing is served at /metrics.' });
  });

  it('answers 401 without the token or with another', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, TOKEN]) {
      const res = await fetch(`${server.baseUrl}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect((await res.json()).message).toBe('Unauthorized');
    }
  });

  it('times requests by route pattern, method and status, never by the path itself', async () => {
    const cardNumber = await fundedCard(10_000);
    expect((await key.get(`/api/v1/card/${cardNumber}`)).status).toBe(200);
    expect((await apiClient('sk_test_nope', server.baseUrl).get(`/api/v1/card/${cardNumber}`)).status).toBe(401);
    const route = { route: '/api/v1/card/[card_number]', method: 'GET' };
    // A request is counted once its connection has finished with the answer, a moment after the client has it.
    await waitForSample('giftcard_http_request_duration_seconds_count', { ...route, status: '401' }, (v) => v === 1);
    const text = await scrape();
    expect(sample(text, 'giftcard_http_request_duration_seconds_count', { ...route, status: '200' })).toBe(1);
    expect(sample(text, 'giftcard_http_request_duration_seconds_count', { ...route, status: '401' })).toBe(1);
    expect(sample(text, 'giftcard_http_request_duration_seconds_bucket', { ...route, status: '200', le: '+Inf' })).toBe(1);
    expect(text).not.toContain(cardNumber);
    // A path no route serves is one label, whatever it is.
    await fetch(`${server.baseUrl}/no/such/${cardNumber}`);
    await waitForSample('giftcard_http_request_duration_seconds_count', { route: 'other', method: 'GET' }, (v) => v === 1);
  });

  it('counts payouts and payments by type, mode and outcome', async () => {
    const source = await fundedCard(5_000);
    const destination = await fundedCard(1_000);
    const before = sample(await scrape(), 'giftcard_payouts_total', { type: 'card_to_card', mode: 'test', outcome: 'success' }) ?? 0;
    expect((await key.post('/api/v1/card/payouts', { card_number: source, destination_card_number: destination, amount: 1_000 })).status).toBe(200);
    const refused = await key.post('/api/v1/card/payouts', { card_number: source, destination_card_number: destination, amount: 1_000_000 });
    expect(refused.status).toBe(400);
    const payment = await key.post('/api/v1/card/payments', { type: 'hosted', amount: 2_000, card_number: destination });
    expect(payment.status).toBe(201);
    const text = await scrape();
    expect(sample(text, 'giftcard_payouts_total', { type: 'card_to_card', mode: 'test', outcome: 'success' })).toBe(before + 1);
    expect(sample(text, 'giftcard_payouts_total', { type: 'card_to_card', mode: 'test', outcome: 'insufficient_balance' })).toBe(1);
    expect(sample(text, 'giftcard_payments_total', { type: 'hosted', mode: 'test', outcome: 'pending' })).toBe(1);
  });

  it('counts webhook deliveries by outcome, their lag from commit, and the outbox depth and oldest age', async () => {
    // The payouts above reached the dashboard's own endpoint.
    await waitForSample('giftcard_webhook_deliveries_total', { outcome: 'delivered' }, (v) => v > 0);
    expect(sample(await scrape(), 'giftcard_webhook_delivery_lag_seconds_count')).toBeGreaterThan(0);
    // A business endpoint nobody listens on: its deliveries fail and wait for a retry ten minutes away.
    const hook = await admin.put(`/api/admin/businesses/${businessId}/webhook`, { mode: 'test', url: 'http://127.0.0.1:1/hooks' });
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    await fundedCard(100);
    await waitForSample('giftcard_webhook_deliveries_total', { outcome: 'retry' }, (v) => v > 0);
    const pending = await db.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'pending'`);
    expect(pending.rows[0].n).toBeGreaterThan(0);
    const text = await scrape();
    expect(sample(text, 'giftcard_outbox_depth')).toBe(pending.rows[0].n);
    expect(sample(text, 'giftcard_outbox_oldest_age_seconds')).toBeGreaterThan(0);
    expect(sample(text, 'giftcard_outbox_oldest_age_seconds')).toBeLessThan(RETRY_MS / 1000);
  });

  it('counts dead jobs by kind for a person to see, and forgets one a person closed', async () => {
    const subject = `rfd_metrics_${Date.now()}`;
    await db.db.execute(
      sql`INSERT INTO jobs (kind, subject, state, attempts, max_attempts, last_error) VALUES ('refund', ${subject}, 'dead', 150, 150, 'refund not sent')`,
    );
    const text = await scrape();
    expect(sample(text, 'giftcard_jobs_dead', { kind: 'refund' })).toBe(1);
    expect(sample(text, 'giftcard_jobs_dead', { kind: 'rail_request' })).toBe(0);
    await db.db.execute(sql`UPDATE jobs SET state = 'done' WHERE kind = 'refund' AND subject = ${subject}`);
    expect(sample(await scrape(), 'giftcard_jobs_dead', { kind: 'refund' })).toBe(0);
  });

  it('shows the database pools, event loop lag, open live streams and the totals fold lag', async () => {
    const email = `owner-${Date.now()}@example.com`;
    expect((await admin.post(`/api/admin/businesses/${businessId}/users`, { email, password: 'dashboard-pass-123', role: 'owner' })).status).toBe(201);
    const { cookie } = await signInOverHttp(email, 'dashboard-pass-123', undefined, server.baseUrl);
    const abort = new AbortController();
    const res = await fetch(`${server.baseUrl}/api/dashboard/live`, { headers: { cookie: cookie! }, signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    for (let seen = ''; !seen.includes('event: ready'); ) seen += Buffer.from((await reader.read()).value ?? []).toString();
    const text = await scrape();
    expect(sample(text, 'giftcard_live_streams_open')).toBe(1);
    for (const pool of ['requests', 'background']) {
      expect(sample(text, 'giftcard_db_pool_in_use', { pool })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'giftcard_db_pool_waiting', { pool })).toBe(0);
    }
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    for (const list of ['payouts', 'payments']) expect(sample(text, 'giftcard_history_fold_lag_seconds', { list })).toBeGreaterThanOrEqual(0);
    abort.abort();
    await waitForSample('giftcard_live_streams_open', {}, (v) => v === 0);
  });

  it('reports the fold lag as the age of the oldest payout not yet folded into the totals', async () => {
    const source = await fundedCard(1_000);
    const destination = await fundedCard(1_000);
    await waitForSample('giftcard_history_fold_lag_seconds', { list: 'payouts' }, (v) => v === 0);
    // The fold's own lock, held here: the fold waits, and a payout made meanwhile stays unfolded.
    const holder = await db.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(727002, 1)');
      expect((await key.post('/api/v1/card/payouts', { card_number: source, destination_card_number: destination, amount: 100 })).status).toBe(200);
      await waitForSample('giftcard_history_fold_lag_seconds', { list: 'payouts' }, (v) => v > 0.5);
    } finally {
      await holder.query('COMMIT');
      holder.release();
    }
    await waitForSample('giftcard_history_fold_lag_seconds', { list: 'payouts' }, (v) => v === 0);
  });

  it('serves every metric the Grafana dashboard draws', async () => {
    const dashboard = fs.readFileSync(path.join(import.meta.dirname, '../../ops/grafana/gift-card-service.json'), 'utf8');
    const drawn = new Set(dashboard.match(/\b(?:giftcard|nodejs)_[a-z0-9_]+/g));
    expect(drawn.size).toBeGreaterThan(10);
    const text = await scrape();
    for (const name of drawn) expect(text, name).toMatch(new RegExp(`^${name}[{ ]`, 'm'));
  });
});
