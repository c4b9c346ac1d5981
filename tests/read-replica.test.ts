import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrate';
import { ReadReplica } from '../lib/db/read-replica';
import { apiClient, type ApiClient, randomPhone, waitFor } from './helpers';
import { getWithSession, PASSWORD, signInOverHttp } from './owners-auth-helpers';
import { replicaPairUnavailable, type ReplicaPair, startReplicaPair } from './replica-pair';
import { startTestServer, type TestServer } from './test-server';

/** A server action's id, from the production build's manifest. */
function actionId(exportedName: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(process.env.NEXT_DIST_DIR || '.next', 'server/server-reference-manifest.json'), 'utf8'));
  const entry = Object.entries(manifest.node as Record<string, { exportedName: string }>).find(([, v]) => v.exportedName === exportedName);
  if (!entry) throw new Error(`no server action ${exportedName} in the build`);
  return entry[0];
}

const unavailable = replicaPairUnavailable();
if (unavailable) console.log(`read replica tests skipped: ${unavailable}`);

// Wide enough that a page can be caught between the age note (2 s) and the fallback.
const MAX_LAG_MS = 15_000;

describe.skipIf(!!unavailable)('reads off the primary (a real streaming replica)', () => {
  let pair: ReplicaPair;
  let server: TestServer;
  let admin: ApiClient;
  let api: ApiClient;
  let cookie: string;
  let standby: pg.Client;
  let source: string;
  let destination: string;
  const closers: (() => Promise<unknown>)[] = [];

  const page = async (path: string, extraCookie = '') => {
    const res = await getWithSession(path, `${cookie}${extraCookie}`, server.baseUrl);
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    return res.text;
  };
  const replicated = (reference: string) => waitFor(async () => ((await page('/payouts')).includes(reference) ? true : undefined), 20_000);
  const payout = async () => {
    const res = await api.post('/api/v1/card/payouts', { card_number: source, destination_card_number: destination, amount: 100 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.initiator_reference as string;
  };
  const balance = async () => (await api.get(`/api/v1/card/${source}`)).body.data.available_amount as number;

  beforeAll(async () => {
    pair = await startReplicaPair();
    console.log(`replica made by ${pair.how}`);
    const setup = new pg.Client({ connectionString: pair.primaryUrl('postgres') });
    await setup.connect();
    await setup.query('CREATE DATABASE giftcard');
    await setup.end();
    await applyMigrations(pair.primaryUrl('giftcard'));
    const adminToken = inject('adminToken');
    server = await startTestServer({
      databaseUrl: pair.primaryUrl('giftcard'),
      adminToken,
      env: { DATABASE_READ_URL: pair.replicaUrl('giftcard'), READ_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS), DB_POOL_SIZE: '4' },
    });
    admin = apiClient(adminToken, server.baseUrl);
    const biz = (await admin.post('/api/admin/businesses', { name: 'Replica reader' })).body.data;
    api = apiClient(biz.api_keys.test, server.baseUrl);
    const card = async () =>
      (await api.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Rep', last_name: 'Lica' })).body.data.card_number as string;
    [source, destination] = [await card(), await card()];
    expect((await admin.post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 100_000 })).status).toBe(200);
    const topUp = await api.post('/api/v1/transfers', { amount: 100_000, bank_slug: 'link', account_number: source, account_name: 'Top-up' });
    await api.post(`/api/v1/test-helpers/payouts/${topUp.body.data.provider_reference}/settle`, { status: 'success' });
    const email = `owner-${Date.now()}@example.com`;
    expect((await admin.post(`/api/admin/businesses/${biz.id}/users`, { email, password: PASSWORD, role: 'owner' })).status).toBe(201);
    const signedIn = await signInOverHttp(email, PASSWORD, undefined, server.baseUrl);
    cookie = signedIn.cookie!;
    standby = new pg.Client({ connectionString: pair.replicaUrl('giftcard') });
    // The second test stops the replica under it.
    standby.on('error', () => {});
    await standby.connect();
    closers.push(() => standby.end());
  }, 120_000);

  afterAll(async () => {
    for (const close of closers) await close().catch(() => {});
    await server?.stop();
    await pair?.stop();
  });

  it('serves list pages and exports from the replica, noting their age, while money checks read the primary', async () => {
    await replicated(await payout());
    await standby.query('SELECT pg_wal_replay_pause()');
    const before = await balance();
    const unseen = await payout();
    // The money check (the card's balance on the API) sees the payout at once.
    expect(await balance()).toBe(before - 100);
    const stale = await waitFor(async () => {
      const text = await page('/payouts');
      return text.includes('Data as of') ? text : undefined;
    });
    expect(stale).not.toContain(unseen);
    expect(stale).toMatch(/Data as of \d+ s ago/);
    // The other pages that read the replica say so too; the card page (a money view) reads the primary.
    for (const path of ['/cards', `/search?q=${unseen}`, '/reports/statement', '/reports/liability', '/audit', '/payments']) {
      expect(await page(path), path).toContain('Data as of');
    }
    expect(await page(`/cards/${source}`)).not.toContain('Data as of');
    const csv = await page('/payouts/export');
    expect(csv).not.toContain(unseen);
    // A dashboard action (a real server action over HTTP) marks its user as having just written...
    const created = await fetch(`${server.baseUrl}/cards/new`, {
      method: 'POST',
      headers: { cookie, 'next-action': actionId('createCard'), 'content-type': 'text/plain;charset=UTF-8', accept: 'text/x-component' },
      body: JSON.stringify([{ phone_number: randomPhone(), currency: 'ETB', first_name: 'Just', last_name: 'Written' }]),
    });
    expect(created.status).toBe(200);
    const cardNumber = /"cardNumber":"(\d{16})"/.exec(await created.text())![1];
    const wrote = created.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith('gc_wrote='));
    expect(wrote).toBeDefined();
    // ...so their next page reads the primary and shows the card, where others still see the replica without it.
    expect(await page('/cards', `; ${wrote}`)).toContain(cardNumber);
    expect(await page('/cards')).not.toContain(cardNumber);
    const fresh = await page('/payouts', `; ${wrote}`);
    expect(fresh).toContain(unseen);
    expect(fresh).not.toContain('Data as of');
    // Past the limit the primary answers: the payout shows though replay is still paused.
    const fellBack = await waitFor(async () => {
      const text = await page('/payouts');
      return text.includes(unseen) ? text : undefined;
    }, 40_000);
    expect(fellBack).not.toContain('Data as of');
    expect((await standby.query('SELECT pg_is_wal_replay_paused() AS paused')).rows[0].paused).toBe(true);
    await standby.query('SELECT pg_wal_replay_resume()');
  });

  it('a replica that stops answers nothing wrong: the primary takes over with no error', async () => {
    await replicated(await payout());
    await pair.stopReplica();
    const reference = await payout();
    // Every request succeeds (page() asserts 200), the first one after the stop included.
    expect(await page('/payouts')).toContain(reference);
    expect(await page('/payouts/export')).toContain(reference);
    expect(await page(`/search?q=${reference}`)).toContain(reference);
  });
});

describe.skipIf(!!unavailable)('ReadReplica measures lag by WAL position', () => {
  let pair: ReplicaPair;
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    pair = await startReplicaPair();
  }, 60_000);
  afterAll(async () => {
    for (const pool of pools) await pool.end();
    await pair?.stop();
  });

  it('is caught up on an idle primary however long ago the last write was, and ages while replay is paused', async () => {
    const primary = createDb(pair.primaryUrl('postgres'), 2);
    const replica = createDb(pair.replicaUrl('postgres'), 2);
    pools.push(primary.pool, replica.pool);
    const router = new ReadReplica(primary.db, replica.db, { maxLagMs: 60_000, checkEveryMs: 0, checkTimeoutMs: 2_000 });
    await primary.pool.query('CREATE TABLE marks (n int)');
    const caughtUp = await waitFor(async () => {
      const s = await router.source();
      return s.replica && s.lagMs === 0 ? s : undefined;
    });
    expect(caughtUp.replica).toBe(true);
    await replica.pool.query('SELECT pg_wal_replay_pause()');
    await primary.pool.query('INSERT INTO marks VALUES (1)');
    const lagging = await waitFor(async () => {
      const s = await router.source();
      return s.lagMs > 500 ? s : undefined;
    });
    expect(lagging.replica).toBe(true);
    expect((await replica.pool.query('SELECT count(*)::int AS n FROM marks')).rows[0].n).toBe(0);
    // A router that never saw the primary before the replica fell behind (an idle spell) still measures a finite age.
    const newcomer = new ReadReplica(primary.db, replica.db, { maxLagMs: 60_000, checkEveryMs: 0, checkTimeoutMs: 2_000 });
    const first = await newcomer.source();
    expect(first.replica).toBe(true);
    expect(first.lagMs).toBeGreaterThan(0);
    expect(first.lagMs).toBeLessThan(60_000);
    expect(await router.source({ fresh: true })).toMatchObject({ replica: false, lagMs: 0 });
    await replica.pool.query('SELECT pg_wal_replay_resume()');
    await waitFor(async () => ((await router.source()).lagMs === 0 ? true : undefined));
  });
});
