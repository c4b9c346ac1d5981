import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient, apiClient, createCard, createTestBusiness, randomPhone, testDb, type ApiClient, type TestBusiness } from '../helpers';
import { fundCard } from '../api/payouts-fixtures';
import { fillRoute, listApiRoutes, type RouteMethod } from './route-list';

/**
 * For every route file's every method, four outsiders ask about business A's
 * test-mode objects: business B's key, A's live key (the other mode), an
 * inactive key of A's and no key. The list comes from the files, and a route
 * without a case below fails the test, so a new route cannot be forgotten.
 */

interface AObjects {
  phone: string;
  card: string;
  card2: string;
  c2cRef: string;
  transferRef: string;
  linkRef: string;
  holdRef: string;
  /** A redemption over A's code threshold, waiting for the cardholder's code. */
  confirmationRef: string;
  id: string;
}

/** batch: 200, every item refused as its single call is for an object not found (404 in the item's envelope). */
type Expectation = 'object' | 'list' | 'create' | 'batch' | 'admin' | 'public';
interface Case {
  expect: Expectation;
  /** Values of the route's dynamic segments, one call per entry. */
  params: (o: AObjects) => Record<string, string>[];
  body?: (o: AObjects) => unknown;
}

const none = () => [{}];
const CASES: Record<string, Case> = {
  'GET /api/v1/banks': { expect: 'list', params: none },
  'GET /api/v1/card': { expect: 'list', params: none },
  'POST /api/v1/card': { expect: 'create', params: none, body: (o) => ({ phone_number: o.phone, currency: 'ETB', first_name: 'Outsider' }) },
  'GET /api/v1/card/[card_number]': { expect: 'object', params: (o) => [{ card_number: o.card }] },
  'PATCH /api/v1/card/[card_number]': { expect: 'object', params: (o) => [{ card_number: o.card }], body: () => ({ status: 'disable' }) },
  'DELETE /api/v1/card/[card_number]': { expect: 'object', params: (o) => [{ card_number: o.card }] },
  'POST /api/v1/card/batch': {
    expect: 'create',
    params: none,
    body: (o) => ({ cards: [{ phone_number: o.phone, currency: 'ETB', first_name: 'Outsider' }] }),
  },
  'POST /api/v1/card/[card_number]/redemptions': { expect: 'object', params: (o) => [{ card_number: o.card }], body: () => ({ amount: 100 }) },
  'POST /api/v1/card/[card_number]/holds': { expect: 'object', params: (o) => [{ card_number: o.card }], body: () => ({ amount: 100 }) },
  'GET /api/v1/card/[card_number]/holds': { expect: 'object', params: (o) => [{ card_number: o.card }] },
  'POST /api/v1/card/[card_number]/share': { expect: 'object', params: (o) => [{ card_number: o.card }], body: () => ({ channel: 'sms' }) },
  'GET /api/v1/card/[card_number]/messages': { expect: 'object', params: (o) => [{ card_number: o.card }] },
  'GET /api/v1/card/holds/[hold_reference]': { expect: 'object', params: (o) => [{ hold_reference: o.holdRef }] },
  'POST /api/v1/card/holds/[hold_reference]/capture': { expect: 'object', params: (o) => [{ hold_reference: o.holdRef }], body: () => ({}) },
  'POST /api/v1/card/confirmations/[confirmation_reference]': {
    expect: 'object',
    params: (o) => [{ confirmation_reference: o.confirmationRef }],
    body: () => ({ code: '000000' }),
  },
  'POST /api/v1/card/holds/[hold_reference]/void': { expect: 'object', params: (o) => [{ hold_reference: o.holdRef }] },
  'POST /api/v1/card/payment/[link_reference]/authorize': {
    expect: 'object',
    params: (o) => [{ link_reference: o.linkRef }],
    body: () => ({ otp: '12345' }),
  },
  'GET /api/v1/card/payment/[link_reference]/status': { expect: 'object', params: (o) => [{ link_reference: o.linkRef }] },
  'GET /api/v1/card/payments': { expect: 'list', params: none },
  'POST /api/v1/card/payments/[reference]/refund': { expect: 'object', params: (o) => [{ reference: o.linkRef }], body: () => ({ amount: 100 }) },
  'POST /api/v1/card/payments': { expect: 'object', params: none, body: (o) => ({ type: 'hosted', amount: 1_000, card_number: o.card }) },
  'GET /api/v1/card/payout/[reference]/status': { expect: 'object', params: (o) => [{ reference: o.c2cRef }, { reference: o.transferRef }] },
  'GET /api/v1/card/payouts': { expect: 'list', params: none },
  'POST /api/v1/card/payouts': {
    expect: 'object',
    params: none,
    body: (o) => ({ card_number: o.card, destination_card_number: o.card2, amount: 100 }),
  },
  'POST /api/v1/card/payouts/batch': {
    expect: 'batch',
    params: none,
    body: (o) => ({
      payouts: [
        { card_number: o.card, destination_card_number: o.card2, amount: 100 },
        { card_number: o.card, merchant_id: 'mer_unknown', amount: 100 },
      ],
    }),
  },
  'GET /api/v1/events': { expect: 'list', params: none },
  'POST /api/v1/test-helpers/payments/[link_reference]/complete': {
    expect: 'object',
    params: (o) => [{ link_reference: o.linkRef }],
    body: () => ({ status: 'failed' }),
  },
  'POST /api/v1/test-helpers/payouts/[reference]/settle': {
    expect: 'object',
    params: (o) => [{ reference: o.transferRef }],
    body: () => ({ status: 'failed' }),
  },
  'GET /api/v1/locations': { expect: 'list', params: none },
  'POST /api/v1/locations': { expect: 'create', params: none, body: () => ({ name: 'Outsider branch' }) },
  'GET /api/v1/shop/orders': { expect: 'list', params: none },
  'POST /api/v1/transfers': {
    expect: 'object',
    params: none,
    body: (o) => ({ amount: 100, bank_slug: 'link', account_number: o.card, account_name: 'Outsider' }),
  },
};
const adminCase = (body?: unknown): Case => ({ expect: 'admin', params: (o) => [{ id: o.id, card_number: o.card, reference: o.linkRef }], body: () => body });

function caseFor(r: RouteMethod): Case | undefined {
  const key = `${r.method} ${r.route}`;
  if (!r.wrapped && r.method === 'GET' && !r.route.includes('[')) return { expect: 'public', params: none };
  if (r.route.startsWith('/api/admin/')) {
    const bodies: Record<string, unknown> = {
      'POST /api/admin/businesses': { name: 'Outsider' },
      'POST /api/admin/businesses/[id]/api-keys': { mode: 'test' },
      'POST /api/admin/businesses/[id]/balance': { mode: 'test', currency: 'ETB', amount: 1_000_000 },
      'PUT /api/admin/businesses/[id]/fees': { mode: 'test', rules: [{ applies_to: 'card_to_card', percent: 50, fixed: 0 }] },
      'POST /api/admin/businesses/[id]/users': { email: 'outsider@example.com', password: 'outsider-password', role: 'owner' },
      'PUT /api/admin/businesses/[id]/webhook': { mode: 'test', url: 'http://127.0.0.1:9/hook' },
      'POST /api/admin/businesses/[id]/webhook/rotate': { mode: 'test' },
      'POST /api/admin/businesses/[id]/webhook/replay': { mode: 'test' },
    };
    return adminCase(bodies[key] ?? {});
  }
  return CASES[key];
}

let a: TestBusiness;
let b: TestBusiness;
let inactive: ApiClient;
let objects: AObjects;
const leakMarkers = (o: AObjects) => [o.card, o.card2, o.c2cRef, o.transferRef, o.linkRef, o.holdRef, o.confirmationRef];

beforeAll(async () => {
  a = await createTestBusiness('Isolation A');
  b = await createTestBusiness('Isolation B');
  const phone = randomPhone();
  const card = await createCard(a.test, 'ETB', phone);
  const card2 = await createCard(a.test);
  await fundCard(a, card.card_number, 50_000);
  const c2c = await a.test.post('/api/v1/card/payouts', { card_number: card.card_number, destination_card_number: card2.card_number, amount: 1_000 });
  expect(c2c.status).toBe(200);
  await adminClient().post(`/api/admin/businesses/${a.id}/balance`, { mode: 'test', currency: 'ETB', amount: 5_000 });
  const transfer = await a.test.post('/api/v1/transfers', { amount: 5_000, bank_slug: 'link', account_number: card2.card_number, account_name: 'Pending' });
  expect(transfer.status).toBe(200);
  const payment = await a.test.post('/api/v1/card/payments', { type: 'hosted', amount: 2_000, card_number: card.card_number });
  expect(payment.status).toBe(201);
  const hold = await a.test.post(`/api/v1/card/${card.card_number}/holds`, { amount: 1_000 });
  expect(hold.status).toBe(201);
  await adminClient().put(`/api/admin/businesses/${a.id}/limits`, { mode: 'test', currency: 'ETB', spend_code_over: 20_000 });
  const waiting = await a.test.post(`/api/v1/card/${card.card_number}/redemptions`, { amount: 30_000 });
  expect(waiting.status).toBe(202);
  const key = await adminClient().post(`/api/admin/businesses/${a.id}/api-keys`, { mode: 'test', active: false });
  inactive = apiClient(key.body.data.key);
  objects = {
    phone,
    card: card.card_number,
    card2: card2.card_number,
    c2cRef: c2c.body.data.initiator_reference,
    transferRef: transfer.body.data.provider_reference,
    linkRef: payment.body.data.link_reference,
    holdRef: hold.body.data.hold_reference,
    confirmationRef: waiting.body.data.confirmation_reference,
    id: String(a.id),
  };
});

/** A's test-mode objects (A's own live key may rightly create live ones), keys, fees and users. */
async function snapshotOfA() {
  const { rows } = await testDb().execute(sql`
    SELECT (SELECT json_agg(json_build_object('n', card_number, 's', status, 'c', cancelled_at IS NULL) ORDER BY id) FROM cards WHERE business_id = ${a.id} AND mode = 'test') AS cards,
           (SELECT json_agg(json_build_object('r', reference, 's', status) ORDER BY id) FROM payouts WHERE business_id = ${a.id} AND mode = 'test') AS payouts,
           (SELECT json_agg(json_build_object('r', link_reference, 's', status) ORDER BY id) FROM payments WHERE business_id = ${a.id} AND mode = 'test') AS payments,
           (SELECT json_agg(json_build_object('a', id, 'b', balance) ORDER BY id) FROM ledger_accounts WHERE business_id = ${a.id} AND mode = 'test') AS balances,
           (SELECT json_agg(json_build_object('r', reference, 's', status, 'o', outcome) ORDER BY id) FROM holds WHERE business_id = ${a.id} AND mode = 'test') AS holds,
           (SELECT count(*)::int FROM cardholder_messages WHERE business_id = ${a.id}) AS messages,
           (SELECT json_agg(json_build_object('r', reference, 'a', attempts, 'u', used_at) ORDER BY id) FROM spend_confirmations WHERE business_id = ${a.id}) AS confirmations,
           (SELECT count(*)::int FROM card_links WHERE business_id = ${a.id}) AS links,
           (SELECT count(*)::int FROM api_keys WHERE business_id = ${a.id}) AS keys,
           (SELECT count(*)::int FROM fee_rules WHERE business_id = ${a.id}) AS fees,
           (SELECT count(*)::int FROM users WHERE business_id = ${a.id}) AS users`);
  return rows[0];
}

describe('isolation matrix, generated from the route files', () => {
  const routes = listApiRoutes();

  it('finds the API and back office routes, and has a case for every one', () => {
    expect(routes.length).toBeGreaterThanOrEqual(26);
    expect(routes.filter((r) => !caseFor(r)).map((r) => `${r.method} ${r.route}`)).toEqual([]);
  });

  it("every outsider gets 404, 401 or 403 for A's objects, on every route and method, and A is unchanged", async () => {
    const before = await snapshotOfA();
    const outsiders: [string, ApiClient][] = [
      ['business B key', b.test],
      ['other mode key', a.live],
      ['inactive key', inactive],
      ['no key', apiClient(undefined)],
    ];
    const failures: string[] = [];
    let checks = 0;
    for (const r of routes) {
      const c = caseFor(r)!;
      for (const params of c.params(objects)) {
        const path = fillRoute(r.route, params);
        for (const [who, client] of outsiders) {
          const body = c.body?.(objects);
          const res = await (r.method === 'GET'
            ? client.get(path)
            : r.method === 'DELETE'
              ? client.delete(path)
              : client[r.method.toLowerCase() as 'post'](path, body ?? {}));
          checks++;
          const text = JSON.stringify(res.body);
          let expected: string;
          let ok: boolean;
          if (c.expect === 'public') {
            expected = "200 without A's objects";
            ok = res.status === 200 && !leakMarkers(objects).some((m) => text.includes(m));
          } else if (who === 'no key' || c.expect === 'admin') {
            expected = '401';
            ok = res.status === 401;
          } else if (who === 'inactive key') {
            expected = '403';
            ok = res.status === 403;
          } else if (c.expect === 'object') {
            expected = '404';
            ok = res.status === 404;
          } else if (c.expect === 'batch') {
            expected = "200, every item 'Gift card not found'";
            const results: { status?: string; message?: string }[] = res.body?.data?.results ?? [];
            ok =
              res.status === 200 &&
              results.length > 0 &&
              results.every((item) => item.status === 'error' && item.message === 'Gift card not found') &&
              !leakMarkers(objects).some((m) => text.includes(m));
          } else {
            expected = "2xx without A's objects";
            ok = res.status >= 200 && res.status < 300 && !leakMarkers(objects).some((m) => text.includes(m));
          }
          if (ok && res.status >= 400) ok = res.body?.status === 'error' && typeof res.body.message === 'string' && 'error' in res.body;
          if (!ok) failures.push(`${who} ${r.method} ${path}: expected ${expected}, got ${res.status} ${text.slice(0, 200)}`);
        }
      }
    }
    console.log(`isolation matrix: ${routes.length} route methods, ${checks} checks`);
    expect(failures).toEqual([]);
    expect(checks).toBeGreaterThanOrEqual(routes.length * 4);
    expect(await snapshotOfA()).toEqual(before);
  });
});
