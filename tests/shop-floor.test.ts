import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import '../lib/actions/all-actions';
import { ALL_ACTIONS, runActionAs } from '../lib/actions/define-action';
import { createLocationAction, setUserLocationAction } from '../lib/actions/location-actions';
import { tillCaptureAction, tillFindAction, tillHoldAction, tillRedeemAction, tillVoidAction } from '../lib/actions/till-actions';
import type { DashboardSession } from '../lib/auth/session-types';
import type { Role } from '../lib/auth/users';
import { tillReport } from '../lib/dashboard/till';
import { statementSummary } from '../lib/reports/business-statement';
import { dayIn } from '../lib/time-zone';
import { adminClient, apiClient, createCard, createTestBusiness, type TestBusiness, testDb } from './helpers';
import { fundCard } from './ledger-helpers';
import { getWithSession, PASSWORD, signInOverHttp } from './owners-auth-helpers';

// runActionAs opens the app's own pool: point it at the tests' database.
process.env.DATABASE_URL = inject('databaseUrl');

async function teammate(biz: TestBusiness, role: Role, locationId?: number): Promise<DashboardSession> {
  const email = `${role}-${randomUUID()}@example.com`;
  const res = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, {
    email,
    password: PASSWORD,
    role,
    ...(locationId !== undefined && { location_id: locationId }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.data).toMatchObject({ role, location_id: locationId ?? null });
  const userId = res.body.data.id as number;
  return {
    userId,
    email,
    businessId: biz.id,
    role,
    mode: 'test',
    timeZone: 'Africa/Addis_Ababa',
    country: 'ET',
    actor: { type: 'user', id: String(userId) },
    locationId: locationId ?? null,
  };
}

async function branch(biz: TestBusiness, name: string): Promise<number> {
  const res = await biz.test.post('/api/v1/locations', { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body).toMatchObject({ status: 'success', message: 'Location created successfully', data: { id: expect.any(Number), name } });
  return res.body.data.id;
}

/** Every page and route file under a folder of app/, as the URL path it serves (route groups dropped, [params] filled). */
function servedPaths(dir: string): { path: string; file: string }[] {
  const out: { path: string; file: string }[] = [];
  const walk = (abs: string, url: string) => {
    for (const name of readdirSync(abs)) {
      const full = path.join(abs, name);
      if (statSync(full).isDirectory()) {
        const segment = /^\(.*\)$/.test(name) ? '' : name.startsWith('[') ? (name === '[kind]' ? 'cards' : '4000123412341234') : name;
        walk(full, segment ? `${url}/${segment}` : url);
      } else if (name === 'page.tsx' || name === 'route.ts') out.push({ path: url || '/', file: full });
    }
  };
  walk(path.join(process.cwd(), dir), dir.startsWith('app/api') ? `/${dir.slice(4)}` : '');
  return out;
}

describe('the cashier', () => {
  let biz: TestBusiness;
  let cookie: string;

  beforeAll(async () => {
    biz = await createTestBusiness('Shop floor');
    const cashier = await teammate(biz, 'cashier');
    cookie = (await signInOverHttp(cashier.email, PASSWORD)).cookie!;
    expect(cookie).toBeTruthy();
  });

  it('is refused every dashboard page, export and route but the till and their own account, over HTTP; signing in lands on /till', async () => {
    const served = [...servedPaths('app/(dashboard)'), ...servedPaths('app/api/dashboard')];
    expect(served.length).toBeGreaterThan(40);
    const open = ['/till', '/account', '/account/two-factor'];
    const answers: Record<string, string | number> = {};
    for (const { path: p, file } of served) {
      const post = file.endsWith('route.ts') && !/\bGET\b/.test(readFileSync(file, 'utf8'));
      const res = post ? await fetch(`${inject('baseUrl')}${p}`, { method: 'POST', redirect: 'manual', headers: { cookie } }) : await getWithSession(p, cookie);
      answers[p] = 'location' in res && res.location ? `→${new URL(res.location, 'http://x').pathname}` : res.status;
    }
    const expected = Object.fromEntries(served.map(({ path: p }) => [p, p === '/' ? '→/till' : open.includes(p) ? 200 : 403]));
    expect(answers).toEqual(expected);
  });

  it('is refused every dashboard action but the till’s and their own account’s', async () => {
    const cashier = await teammate(biz, 'cashier');
    const allowed = ALL_ACTIONS.filter((d) => d.permission === 'till' || d.permission === 'account').map((d) => d.name);
    expect(allowed.filter((n) => n.startsWith('till.')).sort()).toEqual(['till.capture', 'till.confirm', 'till.find', 'till.hold', 'till.redeem', 'till.void']);
    expect(ALL_ACTIONS.length - allowed.length).toBeGreaterThan(30);
    for (const def of ALL_ACTIONS) {
      if (allowed.includes(def.name)) continue;
      expect(await runActionAs(def, cashier, {}), def.name).toMatchObject({ ok: false, code: 'forbidden' });
    }
  });
});

describe('branches', () => {
  it('are named per business through the API, listed with the read scope, and another business’s is not found everywhere', async () => {
    const a = await createTestBusiness('Branches A');
    const b = await createTestBusiness('Branches B');
    const bole = await branch(a, 'Bole');
    expect((await a.live.post('/api/v1/locations', { name: 'Piassa' })).status).toBe(201);
    expect((await a.test.post('/api/v1/locations', { name: 'bole' })).status).toBe(409);
    expect((await a.test.post('/api/v1/locations', { name: '  ' })).body).toMatchObject({ status: 'error', message: 'Validation error' });
    // Both modes see the business's branches.
    expect((await a.test.get('/api/v1/locations')).body.data.map((l: { name: string }) => l.name)).toEqual(['Bole', 'Piassa']);
    expect((await b.test.get('/api/v1/locations')).body.data).toEqual([]);
    const readKey = await adminClient().post(`/api/admin/businesses/${a.id}/api-keys`, { mode: 'test', name: 'Reader', scopes: ['read'] });
    const reader = apiClient(readKey.body.data.key);
    expect((await reader.get('/api/v1/locations')).status).toBe(200);
    expect((await reader.post('/api/v1/locations', { name: 'Merkato' })).status).toBe(403);

    const card = (await createCard(b.test)).card_number as string;
    await fundCard(card, 10_000);
    const notFound = { status: 'error', message: 'Location not found' };
    const redeemed = await b.test.post(`/api/v1/card/${card}/redemptions`, { amount: 100, location_id: bole });
    expect(redeemed.status).toBe(404);
    expect(redeemed.body).toMatchObject(notFound);
    const held = await b.test.post(`/api/v1/card/${card}/holds`, { amount: 100, location_id: bole });
    expect([held.status, held.body.message]).toEqual([404, 'Location not found']);
    expect((await b.test.post(`/api/v1/card/${card}/redemptions`, { amount: 100, location_id: 2_000_000_000 })).status).toBe(404);
    expect((await b.test.get(`/api/v1/card/${card}`)).body.data).toMatchObject({ available_amount: 10_000, held_amount: 0 });
    const user = await adminClient().post(`/api/admin/businesses/${b.id}/users`, {
      email: `x-${randomUUID()}@example.com`,
      password: PASSWORD,
      role: 'cashier',
      location_id: bole,
    });
    expect([user.status, user.body.message]).toEqual([404, 'Location not found']);

    // Without location_id the answers say null: the field is added, nothing else changes.
    const plain = await b.test.post(`/api/v1/card/${card}/redemptions`, { amount: 100 });
    expect(plain.status).toBe(200);
    expect(plain.body.data.location_id).toBeNull();
  });

  it('record where a cashier’s money moved, and the till report per branch ties out with the ledger', async () => {
    const biz = await createTestBusiness('Branch figures');
    const [bole, piassa] = [await branch(biz, 'Bole'), await branch(biz, 'Piassa')];
    const cashier = await teammate(biz, 'cashier', bole);
    const other = await teammate(biz, 'cashier', piassa);
    const card = (await createCard(biz.test)).card_number as string;
    await fundCard(card, 100_000);

    const found = await runActionAs(tillFindAction, cashier, { query: card });
    expect(found).toMatchObject({ ok: true, data: [{ card_number: card, available_amount: 100_000, held_amount: 0, holds: [] }] });
    const money = (amount: string) => ({ card_number: card, amount, submission_id: randomUUID() });
    const redeemed = await runActionAs(tillRedeemAction, cashier, money('12.50'));
    expect(redeemed).toMatchObject({ ok: true, data: { amount: 1_250, location_id: bole } });
    // A cashier's branch is theirs: the API's location_id is not theirs to choose.
    const held = await runActionAs(tillHoldAction, cashier, money('100'));
    expect(held).toMatchObject({ ok: true, data: { status: 'held', amount: 10_000, location_id: bole } });
    const reference = held.ok ? held.data.hold_reference : '';
    const captured = await runActionAs(tillCaptureAction, cashier, { hold_reference: reference, amount: '75', submission_id: randomUUID() });
    expect(captured).toMatchObject({ ok: true, data: { status: 'captured', captured_amount: 7_500, location_id: bole } });
    const voided = await runActionAs(tillHoldAction, cashier, money('5'));
    expect(voided.ok).toBe(true);
    expect(await runActionAs(tillVoidAction, cashier, { hold_reference: voided.ok ? voided.data.hold_reference : '' })).toMatchObject({
      ok: true,
      data: { status: 'voided' },
    });
    expect(await runActionAs(tillRedeemAction, other, money('3'))).toMatchObject({ ok: true, data: { location_id: piassa } });
    const api = await biz.test.post(`/api/v1/card/${card}/redemptions`, { amount: 200, location_id: bole });
    expect(api.body.data.location_id).toBe(bole);
    await biz.test.post(`/api/v1/card/${card}/redemptions`, { amount: 400 });

    const db = testDb();
    const events = await db.execute<{ type: string; location: number | null }>(sql`
      SELECT type, (body::jsonb->>'location_id')::int AS location FROM webhook_events WHERE business_id = ${biz.id} ORDER BY id`);
    expect(events.rows.filter((e) => e.type === 'card.redeemed').map((e) => e.location)).toEqual([bole, piassa, bole, null]);
    expect(events.rows.filter((e) => e.type.startsWith('hold.')).map((e) => [e.type, e.location])).toEqual([
      ['hold.created', bole],
      ['hold.captured', bole],
      ['hold.created', bole],
      ['hold.voided', bole],
    ]);

    const day = dayIn('Africa/Addis_Ababa', new Date());
    const report = (opts: { locationId?: number; userId?: number }) =>
      tillReport(db, { businessId: biz.id, mode: 'test', day, timeZone: 'Africa/Addis_Ababa', ...opts });
    const atBole = await report({ locationId: bole });
    expect(atBole).toEqual([
      { user_id: cashier.userId, email: cashier.email, location_id: bole, currency: 'ETB', count: 2, total: 8_750, voids: 1 },
      { user_id: null, email: null, location_id: bole, currency: 'ETB', count: 1, total: 200, voids: 0 },
    ]);
    expect(await report({ userId: other.userId })).toEqual([
      { user_id: other.userId, email: other.email, location_id: piassa, currency: 'ETB', count: 1, total: 300, voids: 0 },
    ]);
    // The ledger's own view: what left the card in redemptions recorded at each branch (and at none).
    const ledger = await db.execute<{ location_id: number | null; spent: string; n: number }>(sql`
      SELECT t.location_id, -sum(e.amount) AS spent, count(*)::int AS n
      FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN cards c ON c.account_id = e.account_id
      WHERE t.kind = 'card_redemption' AND t.business_id = ${biz.id} GROUP BY 1`);
    const all = await report({});
    for (const row of ledger.rows) {
      const mine = all.filter((r) => r.location_id === row.location_id);
      expect(
        mine.reduce((s, r) => s + r.total, 0),
        `branch ${row.location_id}`,
      ).toBe(Number(row.spent));
      expect(mine.reduce((s, r) => s + r.count, 0)).toBe(row.n);
    }
    expect((await biz.test.get(`/api/v1/card/${card}`)).body.data.available_amount).toBe(100_000 - 1_250 - 7_500 - 300 - 200 - 400);
    // The business statement read per branch: what reached the business account from the branch's redemptions and captures.
    const statement = (location?: number) =>
      statementSummary(db, { businessId: biz.id, mode: 'test', timeZone: 'Africa/Addis_Ababa', currency: 'ETB', from: day, to: day, location });
    expect(await statement(bole)).toMatchObject({ moneyIn: 8_750 + 200, moneyOut: 0, lines: 3 });
    expect(await statement(piassa)).toMatchObject({ moneyIn: 300, lines: 1 });
    const whole = await statement();
    expect(whole.lines).toBeGreaterThan(4);
  });

  it('are named by the owner in Settings and tied to a teammate on Team; another business’s is not found', async () => {
    const biz = await createTestBusiness('Branches on the dashboard');
    const other = await createTestBusiness('Branches elsewhere');
    const owner = await teammate(biz, 'owner');
    const named = await runActionAs(createLocationAction, owner, { name: ' Kazanchis ' });
    expect(named).toMatchObject({ ok: true, data: { name: 'Kazanchis' } });
    const id = named.ok ? named.data.id : 0;
    expect(await runActionAs(createLocationAction, await teammate(biz, 'operator'), { name: 'Bole' })).toMatchObject({ ok: false, code: 'forbidden' });
    const cashier = await teammate(biz, 'cashier');
    expect(await runActionAs(setUserLocationAction, owner, { user_id: cashier.userId, location_id: id })).toMatchObject({
      ok: true,
      data: { location_id: id },
    });
    const elsewhere = await runActionAs(createLocationAction, await teammate(other, 'owner'), { name: 'Piassa' });
    const foreign = elsewhere.ok ? elsewhere.data.id : 0;
    expect(await runActionAs(setUserLocationAction, owner, { user_id: cashier.userId, location_id: foreign })).toMatchObject({
      ok: false,
      code: 'location_not_found',
    });
    const db = testDb();
    const tied = await db.execute<{ location_id: number | null }>(sql`SELECT location_id FROM users WHERE id = ${cashier.userId}`);
    expect(tied.rows[0].location_id).toBe(id);
    expect(await runActionAs(setUserLocationAction, owner, { user_id: cashier.userId, location_id: null })).toMatchObject({
      ok: true,
      data: { location_id: null },
    });
  });
});
