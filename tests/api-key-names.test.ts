import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { auditSentence } from '../components/audit/audit-sentence';
import { createApiKey, renameApiKey } from '../lib/actions/developer-actions';
import { runActionAs } from '../lib/actions/define-action';
import { listUsers } from '../lib/auth/list-users';
import type { DashboardSession } from '../lib/auth/session-types';
import { authorizeSignIn } from '../lib/auth/sign-in';
import { SignInLimits } from '../lib/auth/sign-in-limits';
import { listAuditLog } from '../lib/dashboard/list-audit-log';
import { listApiKeys } from '../lib/keys/list-api-keys';
import { adminClient, apiClient, createTestBusiness, testDb, waitFor, type TestBusiness } from './helpers';

process.env.DATABASE_URL = inject('databaseUrl');

const owner = (biz: TestBusiness, userId: number): DashboardSession => ({
  userId,
  email: `owner-${userId}@example.com`,
  businessId: biz.id,
  role: 'owner',
  mode: 'test',
  timeZone: 'Africa/Addis_Ababa',
  country: 'ET',
  actor: { type: 'user', id: String(userId) },
});

async function keyRow(id: number) {
  const { rows } = await testDb().execute<{ last_used_at: Date | null; xmin: string; name: string }>(
    sql`SELECT last_used_at, xmin::text AS xmin, name FROM api_keys WHERE id = ${id}`,
  );
  return rows[0];
}

let a: TestBusiness;
let b: TestBusiness;
let session: DashboardSession;

beforeAll(async () => {
  [a, b] = await Promise.all([createTestBusiness('Key names A'), createTestBusiness('Key names B')]);
  const email = `owner-${randomUUID()}@example.com`;
  const made = await adminClient().post(`/api/admin/businesses/${a.id}/users`, { email, password: 'dashboard-pass-123', role: 'owner' });
  expect(made.status).toBe(201);
  session = { ...owner(a, made.body.data.id), email };
});

describe('API key names', () => {
  it('a key is created with a name, listed with its prefix and last four, renamed, and both are audited as sentences', async () => {
    const created = await runActionAs(createApiKey, session, { name: '  Shop backend ' });
    if (!created.ok) throw new Error(created.message);
    expect(created.data.name).toBe('Shop backend');
    const listed = (await listApiKeys(testDb(), a.id, 'test')).find((k) => k.id === created.data.id)!;
    expect(listed).toMatchObject({ name: 'Shop backend', prefix: created.data.key.slice(0, 12), lastFour: created.data.key.slice(-4), lastUsedAt: null });

    const renamed = await runActionAs(renameApiKey, session, { key_id: created.data.id, name: 'Shop backend (old)' });
    expect(renamed.ok).toBe(true);
    expect((await keyRow(created.data.id)).name).toBe('Shop backend (old)');

    const log = await listAuditLog(testDb(), { businessId: a.id, mode: 'test', limit: 10, action: 'api_key' });
    const sentences = log.items.map((e) => auditSentence(e, 'Africa/Addis_Ababa'));
    expect(sentences).toContain(`Created API key “Shop backend” (${created.data.key.slice(0, 12)}…).`);
    expect(sentences).toContain(`Renamed API key ${created.data.key.slice(0, 12)}… from “Shop backend” to “Shop backend (old)”.`);
  });

  it('refuses an empty, overlong or control-character name on the name field, and another business’s key as not found', async () => {
    for (const name of ['', '   ', 'x'.repeat(61), 'bad\u0000name', 'Shop \u202Ednekcab', 'Shop\u200Bbackend', '\u2066Shop\u2069']) {
      const r = await runActionAs(createApiKey, session, { name });
      expect(r.ok, JSON.stringify(name)).toBe(false);
      if (!r.ok) expect(r.fieldErrors?.name, JSON.stringify(name)).toBeTruthy();
    }
    const { rows } = await testDb().execute<{ id: number }>(sql`SELECT id FROM api_keys WHERE business_id = ${b.id} AND mode = 'test' LIMIT 1`);
    const other = await runActionAs(renameApiKey, session, { key_id: rows[0].id, name: 'Mine now' });
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.code).toBe('not_found');
    expect((await keyRow(rows[0].id)).name).toBe('Back office key');
  });

  it('keys made in the back office get a default name, or the one given', async () => {
    const named = await adminClient().post(`/api/admin/businesses/${a.id}/api-keys`, { mode: 'live', name: 'Provider-made' });
    expect(named.status).toBe(201);
    expect(named.body.data.name).toBe('Provider-made');
    const unnamed = await adminClient().post(`/api/admin/businesses/${a.id}/api-keys`, { mode: 'live' });
    expect(unnamed.body.data.name).toBe('Back office key');
    const names = (await listApiKeys(testDb(), a.id, 'live')).map((k) => k.name);
    expect(names).toEqual(expect.arrayContaining(['Provider-made', 'Back office key']));
  });
});

describe('last used', () => {
  it('is written once on first use and not again for the next 50 requests (the row is not rewritten)', async () => {
    const made = await adminClient().post(`/api/admin/businesses/${a.id}/api-keys`, { mode: 'test', name: 'Last used probe' });
    const key = made.body.data.key as string;
    const { rows } = await testDb().execute<{ id: number }>(sql`SELECT id FROM api_keys WHERE prefix = ${key.slice(0, 12)} AND last_four = ${key.slice(-4)}`);
    const id = rows[0].id;
    expect((await keyRow(id)).last_used_at).toBeNull();

    const client = apiClient(key);
    expect((await client.get('/api/v1/card?limit=1')).status).toBe(200);
    const first = await waitFor(async () => {
      const r = await keyRow(id);
      return r.last_used_at ? r : undefined;
    });
    for (let i = 0; i < 50; i++) expect((await client.get('/api/v1/card?limit=1')).status).toBe(200);
    // Give a stray write time to land before looking.
    await new Promise((r) => setTimeout(r, 200));
    const after = await keyRow(id);
    expect(after.xmin, 'the key row was rewritten during the 50 requests').toBe(first.xmin);
    expect(after.last_used_at).toEqual(first.last_used_at);
    const listed = (await listApiKeys(testDb(), a.id, 'test')).find((k) => k.id === id)!;
    expect(listed.lastUsedAt).toBe(new Date(first.last_used_at!).toISOString());
  });
});

describe('last sign-in', () => {
  it('is set by a right password only and shown per teammate', async () => {
    const email = `finance-${randomUUID()}@example.com`;
    expect((await adminClient().post(`/api/admin/businesses/${a.id}/users`, { email, password: 'dashboard-pass-123', role: 'finance' })).status).toBe(201);
    const before = (await listUsers(testDb(), a.id)).find((u) => u.email === email)!;
    expect(before.lastSignInAt).toBeNull();
    const signIn = (password: string) => authorizeSignIn(testDb(), new SignInLimits(1000), { email, password, address: '192.0.2.1' });
    expect(await signIn('wrong-password-1')).toBeNull();
    expect((await listUsers(testDb(), a.id)).find((u) => u.email === email)!.lastSignInAt).toBeNull();
    const started = Date.now();
    expect(await signIn('dashboard-pass-123')).not.toBeNull();
    const after = (await listUsers(testDb(), a.id)).find((u) => u.email === email)!;
    expect(Date.parse(after.lastSignInAt!)).toBeGreaterThanOrEqual(started - 5_000);
  });
});
