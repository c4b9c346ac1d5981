import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { signInDashboard } from '../bench/bench-env';
import { countAuditLog } from '../lib/dashboard/list-audit-log';
import { searchCards } from '../lib/dashboard/search-cards';
import { adminClient, createTestBusiness, randomPhone, testDb, type TestBusiness } from './helpers';
import { parseCsv } from './parse-csv';

let biz: TestBusiness;
let other: TestBusiness;
const cookies = {} as Record<'owner' | 'finance' | 'support', string>;
const cards: Record<'abebe' | 'hana' | 'cancelled' | 'live' | 'others', string> = {} as never;

async function get(path: string, cookie: string) {
  const res = await fetch(`${inject('baseUrl')}${path}`, { headers: { cookie } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
async function csv(path: string, cookie = cookies.finance) {
  const res = await get(path, cookie);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/csv');
  return { ...res, header: res.text.slice(0, res.text.indexOf('\r\n')).split(','), rows: parseCsv(res.text) };
}
const card = async (client: TestBusiness['test'], first_name: string) => {
  const res = await client.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name, last_name: 'Export' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.card_number as string;
};

beforeAll(async () => {
  biz = await createTestBusiness('Exports of cards');
  other = await createTestBusiness('Someone else');
  cards.abebe = await card(biz.test, 'Abebe');
  cards.hana = await card(biz.test, 'Hana');
  cards.cancelled = await card(biz.test, 'Gone');
  expect((await biz.test.delete(`/api/v1/card/${cards.cancelled}`)).status).toBe(200);
  cards.live = await card(biz.live, 'Livemode');
  cards.others = await card(other.test, 'Abebe');
  for (const role of ['owner', 'finance', 'support'] as const) {
    const email = `${role}-${biz.id}-${randomUUID()}@example.com`;
    expect((await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'a-long-password', role })).status).toBe(201);
    cookies[role] = await signInDashboard(inject('baseUrl'), email, 'a-long-password');
  }
});

describe('cards export', () => {
  it("holds this business's test-mode cards, newest first, with status, balance in units and minor units", async () => {
    const file = await csv('/cards/export');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="cards-test-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(file.header.slice(0, 8)).toEqual(['card_number', 'ref_id', 'status', 'currency', 'balance', 'held', 'balance_minor', 'held_minor']);
    const numbers = file.rows.map((r) => r.card_number);
    expect(numbers).toEqual([cards.cancelled, cards.hana, cards.abebe]);
    const abebe = file.rows.find((r) => r.card_number === cards.abebe)!;
    expect(abebe).toMatchObject({ status: 'active', currency: 'ETB', balance: '0.00', balance_minor: '0', first_name: 'Abebe' });
    expect(file.rows.find((r) => r.card_number === cards.cancelled)!.status).toBe('cancelled');
  });

  it("follows the list's search and status, as the page's Export link sends them", async () => {
    expect((await csv('/cards/export?q=abebe')).rows.map((r) => r.card_number)).toEqual([cards.abebe]);
    expect((await csv('/cards/export?status=cancelled')).rows.map((r) => r.card_number)).toEqual([cards.cancelled]);
    expect((await csv(`/cards/export?q=${cards.hana.slice(-4)}&status=active`)).rows.map((r) => r.card_number)).toEqual([cards.hana]);
  });

  it('is refused to a role without the export permission and to nobody signed in', async () => {
    expect((await get('/cards/export', cookies.support)).status).toBe(403);
    expect((await get('/cards/export', '')).status).toBe(401);
  });
});

describe('audit log export', () => {
  it("holds the page's entries with the page's sentence, and follows its filters", async () => {
    const file = await csv('/audit/export', cookies.owner);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-log-test-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(file.header).toEqual(['at (Africa/Addis_Ababa)', 'at_utc', 'actor_type', 'actor', 'action', 'target', 'mode', 'what_happened', 'details']);
    const created = file.rows.filter((r) => r.action === 'card.created');
    expect(created.map((r) => r.target).sort()).toEqual([cards.abebe, cards.hana, cards.cancelled].sort());
    expect(file.rows.some((r) => r.target === cards.live || r.target === cards.others)).toBe(false);
    expect(file.rows.find((r) => r.action === 'card.cancelled')!.what_happened).toMatch(/cancel/i);
    const apiOnly = await csv('/audit/export?actor=api_key&action=card', cookies.owner);
    expect(apiOnly.rows.length).toBeGreaterThan(0);
    expect(apiOnly.rows.every((r) => r.actor_type === 'api_key' && r.action.startsWith('card.'))).toBe(true);
    const none = await csv('/audit/export?action=payout', cookies.owner);
    expect(none.rows).toEqual([]);
  });

  it('is refused to a role that cannot read the audit log', async () => {
    expect((await get('/audit/export', cookies.support)).status).toBe(403);
  });
});

describe('total counts of the lists', () => {
  it('the card list counts what a search or status matches; the audit log counts what its filters match', async () => {
    const scope = { businessId: biz.id, mode: 'test' as const, limit: 1 };
    expect((await searchCards(testDb(), { ...scope, query: 'abebe', countMatches: true })).total).toBe(1);
    expect((await searchCards(testDb(), { ...scope, status: 'active', countMatches: true })).total).toBe(2);
    // Without asking, a search runs no count (the header search and the export walk pages).
    expect((await searchCards(testDb(), { ...scope, status: 'active' })).total).toBeNull();
    expect(await countAuditLog(testDb(), { businessId: biz.id, mode: 'test', action: 'card' })).toBe(4);
    expect(await countAuditLog(testDb(), { businessId: biz.id, mode: 'live', action: 'card' })).toBe(1);
    expect(await countAuditLog(testDb(), { businessId: other.id, mode: 'test', action: 'card' })).toBe(1);
  });
});
