import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../lib/db/client';
import { compile, runCompiled } from '../lib/db/prepared';
import { apiClient, type ApiClient, randomPhone, waitFor } from './helpers';
import { startReceiver } from './api/webhooks-receiver';
import { getWithSession, PASSWORD, signInOverHttp } from './owners-auth-helpers';
import { PGBOUNCER, startPgBouncer } from './pgbouncer-process';
import { createScratchDatabase, startTestServer, type TestServer } from './test-server';

if (!PGBOUNCER) console.log('PgBouncer tests skipped: no pgbouncer binary (apt-get install pgbouncer)');

describe.skipIf(!PGBOUNCER)('the app through PgBouncer in transaction mode', () => {
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>>;
  let server: TestServer;
  let api: ApiClient;
  let admin: ApiClient;
  let businessId: number;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    const direct = await createScratchDatabase(inject('databaseUrl'), 'pgbouncer');
    // Three server connections for an app pool of eight: consecutive statements of one client land on different ones.
    bouncer = await startPgBouncer(direct, 3);
    receiver = await startReceiver();
    const adminToken = inject('adminToken');
    server = await startTestServer({
      databaseUrl: bouncer.url,
      adminToken,
      env: { DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: direct, TEST_SETTLE_AFTER_MS: '0' },
    });
    admin = apiClient(adminToken, server.baseUrl);
    const biz = (await admin.post('/api/admin/businesses', { name: 'Pooled' })).body.data;
    businessId = biz.id;
    api = apiClient(biz.api_keys.test, server.baseUrl);
    expect((await admin.put(`/api/admin/businesses/${businessId}/webhook`, { mode: 'test', url: `${receiver.url}/hook` })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await bouncer?.stop();
    await receiver?.close();
  });

  it('moves money, takes a payment, delivers its webhook and totals the dashboard, every statement through the pooler', async () => {
    const card = async () =>
      (await api.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Pool', last_name: 'Ed' })).body.data.card_number as string;
    const [source, destination] = [await card(), await card()];
    expect((await admin.post(`/api/admin/businesses/${businessId}/balance`, { mode: 'test', currency: 'ETB', amount: 50_000 })).status).toBe(200);
    const topUp = await api.post('/api/v1/transfers', { amount: 50_000, bank_slug: 'link', account_number: source, account_name: 'Top-up' });
    expect(topUp.status, JSON.stringify(topUp.body)).toBe(200);
    await api.post(`/api/v1/test-helpers/payouts/${topUp.body.data.provider_reference}/settle`, { status: 'success' });

    // Concurrent payouts: the app's pool of eight shares three server connections, so prepared statements meet strangers' connections.
    const results = await Promise.all(
      Array.from({ length: 12 }, () => api.post('/api/v1/card/payouts', { card_number: source, destination_card_number: destination, amount: 1_000 })),
    );
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const balance = async (n: string) => (await api.get(`/api/v1/card/${n}`)).body.data.available_amount as number;
    expect(await balance(source)).toBe(50_000 - 12_000);
    expect(await balance(destination)).toBe(12_000);
    // Twelve more than it holds would overdraw it: the balance check holds through the pooler too.
    const tooMuch = await api.post('/api/v1/card/payouts', { card_number: source, destination_card_number: destination, amount: 40_000 });
    expect(tooMuch.status).toBe(400);

    const payment = await api.post('/api/v1/card/payments', { type: 'hosted', amount: 5_000, card_number: destination });
    expect(payment.status, JSON.stringify(payment.body)).toBe(201);
    const completed = await api.post(`/api/v1/test-helpers/payments/${payment.body.data.link_reference}/complete`, { status: 'success' });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    await waitFor(async () => (receiver.requests.some((r) => r.body.toString().includes(payment.body.data.link_reference)) ? true : undefined), 20_000);

    const email = `owner-${Date.now()}@example.com`;
    expect((await admin.post(`/api/admin/businesses/${businessId}/users`, { email, password: PASSWORD, role: 'owner' })).status).toBe(201);
    const { cookie } = await signInOverHttp(email, PASSWORD, undefined, server.baseUrl);
    const list = await getWithSession('/api/dashboard/payouts', cookie!, server.baseUrl);
    expect(list.status, list.text.slice(0, 300)).toBe(200);
    // Twelve payouts and the top-up that funded them.
    expect(JSON.parse(list.text).totals).toEqual({ count: 13, currencies: [{ currency: 'ETB', count: 13, amount: 62_000, fee: 0, net: 62_000 }] });

    // Live dashboard updates: LISTEN holds a session, so it runs on DATABASE_DIRECT_URL; the NOTIFY goes through the pooler.
    const abort = new AbortController();
    const stream = await fetch(`${server.baseUrl}/api/dashboard/live`, { headers: { cookie: cookie! }, signal: abort.signal });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let heard = '';
    const hear = async (text: string) => {
      while (!heard.includes(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${text}: ${heard}`);
        heard += new TextDecoder().decode(value);
      }
    };
    await hear('event: ready');
    const live = await api.post('/api/v1/card/payouts', { card_number: source, destination_card_number: destination, amount: 100 });
    expect(live.status).toBe(200);
    await hear(live.body.data.initiator_reference);
    abort.abort();
    expect(bouncer.log()).not.toMatch(/prepared statement .* does not exist/);
    expect(server.output()).not.toMatch(/prepared statement|does not exist/);
  });

  it('needs DATABASE_POOLER=transaction: named statements break when calls move between server connections', async () => {
    const { db, pool } = createDb(bouncer.url, 8);
    const statement = compile(sql`SELECT ${sql.placeholder('n')}::int + 1 AS n`);
    const burst = () => Promise.allSettled(Array.from({ length: 60 }, (_, n) => runCompiled<{ n: number }>(db, statement, { n })));
    const before = process.env.DATABASE_POOLER;
    try {
      process.env.DATABASE_POOLER = '';
      const named = await burst();
      expect(named.some((r) => r.status === 'rejected')).toBe(true);
      process.env.DATABASE_POOLER = 'transaction';
      const unnamed = await burst();
      expect(unnamed.map((r) => (r.status === 'fulfilled' ? r.value.rows[0].n : r.reason.message))).toEqual(Array.from({ length: 60 }, (_, n) => n + 1));
    } finally {
      process.env.DATABASE_POOLER = before;
      await pool.end();
    }
  });
});
