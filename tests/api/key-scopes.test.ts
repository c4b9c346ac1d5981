import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_SCOPES, type ApiKeyScope } from '../../lib/validation';
import { adminClient, apiClient, createCard, randomPhone, testDb, waitFor, type ApiClient, type ApiResponse, type TestBusiness } from '../helpers';
import { apiKeyOperations } from '../api-key-operations';
import { businessWithCard, cardBalance, fundBusiness } from './payouts-fixtures';

let biz: TestBusiness;
let source: string;

/** What each call needs that the business's full key made beforehand. */
interface Fixture {
  source: string;
  destination: string;
  toDisable: string;
  toCancel: string;
  linkReference: string;
  payoutReference: string;
  holdToCapture: string;
  holdToVoid: string;
}

const issueKey = async (scopes: readonly ApiKeyScope[], mode = 'test') => {
  const res = await adminClient().post(`/api/admin/businesses/${biz.id}/api-keys`, { mode, name: `Only ${scopes.join(' ')}`, scopes });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { key: string; scopes: ApiKeyScope[] };
};

const keyId = async (key: string) => {
  const r = await testDb().execute<{ id: number }>(sql`SELECT id FROM api_keys WHERE prefix = ${key.slice(0, 12)} AND last_four = ${key.slice(-4)}`);
  return r.rows[0].id;
};

/** Fresh fixtures for one key's allowed calls: each changes what it touches (a disabled card, a cancelled card, a settled payout). */
async function fixture(): Promise<Fixture> {
  const full = biz.test;
  const toDisable = (await createCard(full)).card_number;
  const toCancel = (await createCard(full)).card_number;
  const destination = (await createCard(full)).card_number;
  const payment = await full.post('/api/v1/card/payments', { type: 'hosted', amount: 10_000, card_number: source });
  expect(payment.status, JSON.stringify(payment.body)).toBe(201);
  const payout = await full.post('/api/v1/card/payouts', {
    card_number: source,
    amount: 1_000,
    bank_slug: 'cbe',
    account_number: '1000123456789',
    account_name: 'Abebe Kebede',
  });
  expect(payout.status, JSON.stringify(payout.body)).toBe(200);
  const [holdToCapture, holdToVoid] = await Promise.all(
    [1, 2].map(async () => {
      const hold = await full.post(`/api/v1/card/${source}/holds`, { amount: 100 });
      expect(hold.status, JSON.stringify(hold.body)).toBe(201);
      return hold.body.data.hold_reference as string;
    }),
  );
  return {
    source,
    destination,
    toDisable,
    toCancel,
    linkReference: payment.body.data.link_reference,
    payoutReference: payout.body.data.provider_reference,
    holdToCapture,
    holdToVoid,
  };
}

/**
 * The scope each operation needs, stated here by hand rather than read from the contracts (lib/api/contracts), the declarations under
 * test: moving an operation that moves money to another scope must fail this file.
 */
const SCOPE_OF: Record<string, ApiKeyScope> = {
  'GET /banks': 'read',
  'GET /card': 'read',
  'POST /card': 'cards',
  'POST /card/batch': 'cards',
  'GET /card/[card_number]': 'read',
  'PATCH /card/[card_number]': 'cards',
  'DELETE /card/[card_number]': 'cards',
  'POST /card/[card_number]/redemptions': 'payments',
  'POST /card/confirmations/[confirmation_reference]': 'payments',
  'POST /card/[card_number]/holds': 'payments',
  'GET /card/[card_number]/holds': 'read',
  'POST /card/[card_number]/share': 'cards',
  'GET /card/[card_number]/messages': 'read',
  'GET /card/holds/[hold_reference]': 'read',
  'POST /card/holds/[hold_reference]/capture': 'payments',
  'POST /card/holds/[hold_reference]/void': 'payments',
  'GET /card/payments': 'read',
  'POST /card/payments': 'payments',
  'GET /card/payment/[link_reference]/status': 'read',
  'POST /card/payment/[link_reference]/authorize': 'payments',
  'POST /card/payments/[reference]/refund': 'payments',
  'GET /card/payouts': 'read',
  'POST /card/payouts': 'payouts',
  'POST /card/payouts/batch': 'payouts',
  'GET /card/payout/[reference]/status': 'read',
  'GET /events': 'read',
  'GET /locations': 'read',
  'GET /shop/orders': 'read',
  'POST /locations': 'payments',
  'POST /transfers': 'payouts',
  'POST /test-helpers/payments/[link_reference]/complete': 'payments',
  'POST /test-helpers/payouts/[reference]/settle': 'payouts',
};

type Call = (client: ApiClient, f: Fixture, body?: { raw: string }) => Promise<ApiResponse>;

/** One request per operation, and the status it answers when the key may make it. */
const CALLS: Record<string, [Call, number]> = {
  'GET /banks': [(c) => c.get('/api/v1/banks'), 200],
  'GET /card': [(c) => c.get('/api/v1/card'), 200],
  'POST /card': [(c, _, raw) => c.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Scoped' }, raw), 201],
  'POST /card/batch': [
    (c, _, raw) => c.post('/api/v1/card/batch', { cards: [{ phone_number: randomPhone(), currency: 'ETB', first_name: 'Batch' }] }, raw),
    200,
  ],
  'GET /card/[card_number]': [(c, f) => c.get(`/api/v1/card/${f.source}`), 200],
  'PATCH /card/[card_number]': [(c, f, raw) => c.patch(`/api/v1/card/${f.toDisable}`, { status: 'disable' }, raw), 200],
  'DELETE /card/[card_number]': [(c, f) => c.delete(`/api/v1/card/${f.toCancel}`), 200],
  'POST /card/[card_number]/redemptions': [(c, f, raw) => c.post(`/api/v1/card/${f.source}/redemptions`, { amount: 100 }, raw), 200],
  // It completes a redemption or capture waiting for a code; none waits here, so a key that may gets that 404, not a 403.
  'POST /card/confirmations/[confirmation_reference]': [(c, _f, raw) => c.post('/api/v1/card/confirmations/scf_none', { code: '000000' }, raw), 404],
  'POST /card/[card_number]/holds': [(c, f, raw) => c.post(`/api/v1/card/${f.source}/holds`, { amount: 100 }, raw), 201],
  'GET /card/[card_number]/holds': [(c, f) => c.get(`/api/v1/card/${f.source}/holds`), 200],
  'POST /card/[card_number]/share': [(c, f, raw) => c.post(`/api/v1/card/${f.source}/share`, { channel: 'none' }, raw), 202],
  'GET /card/[card_number]/messages': [(c, f) => c.get(`/api/v1/card/${f.source}/messages`), 200],
  'GET /card/holds/[hold_reference]': [(c, f) => c.get(`/api/v1/card/holds/${f.holdToCapture}`), 200],
  'POST /card/holds/[hold_reference]/capture': [(c, f, raw) => c.post(`/api/v1/card/holds/${f.holdToCapture}/capture`, {}, raw), 200],
  'POST /card/holds/[hold_reference]/void': [(c, f, raw) => c.post(`/api/v1/card/holds/${f.holdToVoid}/void`, {}, raw), 200],
  'GET /card/payments': [(c) => c.get('/api/v1/card/payments'), 200],
  'POST /card/payments': [(c, f, raw) => c.post('/api/v1/card/payments', { type: 'hosted', amount: 10_000, card_number: f.source }, raw), 201],
  'GET /card/payment/[link_reference]/status': [(c, f) => c.get(`/api/v1/card/payment/${f.linkReference}/status`), 200],
  // Only a live direct charge waiting for its code can be authorized: a test key that may try gets that 400, not a 403.
  'POST /card/payment/[link_reference]/authorize': [(c, f, raw) => c.post(`/api/v1/card/payment/${f.linkReference}/authorize`, { otp: '12345' }, raw), 400],
  // The fixture's payment is not paid yet: a key that may refund gets that 400, not a 403.
  'POST /card/payments/[reference]/refund': [(c, f, raw) => c.post(`/api/v1/card/payments/${f.linkReference}/refund`, { amount: 100 }, raw), 400],
  'GET /card/payouts': [(c) => c.get('/api/v1/card/payouts'), 200],
  'POST /card/payouts': [
    (c, f, raw) => c.post('/api/v1/card/payouts', { card_number: f.source, destination_card_number: f.destination, amount: 500 }, raw),
    200,
  ],
  'POST /card/payouts/batch': [
    (c, f, raw) => c.post('/api/v1/card/payouts/batch', { payouts: [{ card_number: f.source, destination_card_number: f.destination, amount: 500 }] }, raw),
    200,
  ],
  'GET /card/payout/[reference]/status': [(c, f) => c.get(`/api/v1/card/payout/${f.payoutReference}/status`), 200],
  'GET /events': [(c) => c.get('/api/v1/events'), 200],
  'GET /locations': [(c) => c.get('/api/v1/locations'), 200],
  'GET /shop/orders': [(c) => c.get('/api/v1/shop/orders'), 200],
  'POST /locations': [(c, _f, raw) => c.post('/api/v1/locations', { name: `Branch ${Math.random()}` }, raw), 201],
  'POST /transfers': [
    (c, f, raw) => c.post('/api/v1/transfers', { amount: 500, bank_slug: 'link', account_number: f.source, account_name: 'Top-up' }, raw),
    200,
  ],
  'POST /test-helpers/payments/[link_reference]/complete': [
    (c, f, raw) => c.post(`/api/v1/test-helpers/payments/${f.linkReference}/complete`, { status: 'success' }, raw),
    200,
  ],
  'POST /test-helpers/payouts/[reference]/settle': [
    (c, f, raw) => c.post(`/api/v1/test-helpers/payouts/${f.payoutReference}/settle`, { status: 'success' }, raw),
    200,
  ],
};

beforeAll(async () => {
  ({
    biz,
    card: { card_number: source },
  } = await businessWithCard(1_000_000));
  await fundBusiness(biz, 'test', 'ETB', 1_000_000);
});

describe('every scope against every route', () => {
  it('covers every operation a route file serves', () => {
    expect(Object.keys(CALLS).sort()).toEqual(apiKeyOperations());
    expect(Object.keys(SCOPE_OF).sort()).toEqual(apiKeyOperations());
  });

  it('a key with one scope makes exactly the calls of that scope; every other call is 403 naming the missing scope, before its body is read', async () => {
    const seen: string[] = [];
    for (const scope of API_KEY_SCOPES) {
      const client = apiClient((await issueKey([scope])).key);
      const f = await fixture();
      for (const [operation, [call, allowedStatus]] of Object.entries(CALLS)) {
        const needed = SCOPE_OF[operation];
        if (needed === scope) {
          const res = await call(client, f);
          expect({ scope, operation, status: res.status, body: res.body }).toMatchObject({ scope, operation, status: allowedStatus });
        } else {
          // A malformed body would be a 400 if it were read: the refusal comes first.
          const res = await call(client, f, { raw: '{"not json' });
          expect({ scope, operation, status: res.status, body: res.body }).toEqual({
            scope,
            operation,
            status: 403,
            body: { status: 'error', message: 'Forbidden', error: `This API key lacks the ${needed} scope.` },
          });
        }
        seen.push(`${scope} ${operation}`);
      }
    }
    expect(seen).toHaveLength(API_KEY_SCOPES.length * Object.keys(CALLS).length);
  });

  it('a key with several scopes makes the calls of each', async () => {
    const client = apiClient((await issueKey(['read', 'payouts'])).key);
    const f = await fixture();
    for (const [operation, [call, allowedStatus]] of Object.entries(CALLS)) {
      const res = await call(client, f);
      const expected = ['read', 'payouts'].includes(SCOPE_OF[operation]) ? allowedStatus : 403;
      expect({ operation, status: res.status }).toEqual({ operation, status: expected });
    }
  });
});

describe('a refused call', () => {
  it('moves no money, stores no idempotent answer, and counts as a use of the key', async () => {
    const { key } = await issueKey(['read', 'cards']);
    const client = apiClient(key);
    const destination = (await createCard(biz.test)).card_number;
    const before = await cardBalance(biz.test, source);
    const res = await client.post(
      '/api/v1/card/payouts',
      { card_number: source, destination_card_number: destination, amount: 700 },
      { headers: { 'idempotency-key': 'scoped-1' } },
    );
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('This API key lacks the payouts scope.');
    expect(await cardBalance(biz.test, source)).toBe(before);
    const id = await keyId(key);
    const stored = await testDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE api_key_id = ${id}`);
    expect(stored.rows[0].n).toBe(0);
    // The key was presented and genuine: the owner sees it in use, as with any other call.
    await waitFor(async () => {
      const r = await testDb().execute<{ used: boolean }>(sql`SELECT last_used_at IS NOT NULL AS used FROM api_keys WHERE id = ${id}`);
      return r.rows[0].used || undefined;
    });
  });

  it('is refused on the remembered-key path too: a payout without Idempotency-Key on a key this process already knows', async () => {
    const { key } = await issueKey(['read']);
    const client = apiClient(key);
    const destination = (await createCard(biz.test)).card_number;
    // The GET authenticates the key and this process remembers it; the payout would act on that memory.
    expect((await client.get(`/api/v1/card/${source}`)).status).toBe(200);
    const before = await cardBalance(biz.test, source);
    for (let i = 0; i < 2; i++) {
      const res = await client.post('/api/v1/card/payouts', { card_number: source, destination_card_number: destination, amount: 300 });
      expect(res.body).toEqual({ status: 'error', message: 'Forbidden', error: 'This API key lacks the payouts scope.' });
    }
    expect(await cardBalance(biz.test, source)).toBe(before);

    // And a payouts-only key on that path pays, but still may not read.
    const payer = apiClient((await issueKey(['payouts'])).key);
    for (let i = 0; i < 2; i++) {
      const res = await payer.post('/api/v1/card/payouts', { card_number: source, destination_card_number: destination, amount: 300 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(await cardBalance(biz.test, source)).toBe(before - 600);
    expect((await payer.get(`/api/v1/card/${source}`)).body.error).toBe('This API key lacks the read scope.');
  });

  it('is refused whatever spelling of the path reaches the route', async () => {
    const client = apiClient((await issueKey(['read'])).key);
    const destination = (await createCard(biz.test)).card_number;
    const before = await cardBalance(biz.test, source);
    const lacksPayouts = { status: 403, error: 'This API key lacks the payouts scope.' };
    const answers: [string, number, string][] = [];
    for (const path of ['/api/v1/card/payouts?x=1', '/api/v1/card/payouts#x', '/api/v1//card/payouts', '/api/v1/card/./payouts', '/api/v1/card/%70ayouts']) {
      const res = await client.post(path, { card_number: source, destination_card_number: destination, amount: 300 });
      answers.push([path, res.status, res.body.error]);
    }
    expect(answers).toEqual([
      ['/api/v1/card/payouts?x=1', lacksPayouts.status, lacksPayouts.error],
      ['/api/v1/card/payouts#x', lacksPayouts.status, lacksPayouts.error],
      ['/api/v1//card/payouts', lacksPayouts.status, lacksPayouts.error],
      ['/api/v1/card/./payouts', lacksPayouts.status, lacksPayouts.error],
      // Next.js does not decode a folder's name: this is POST on /card/{card_number}, which no one serves.
      ['/api/v1/card/%70ayouts', 405, 'This path answers GET, PATCH, DELETE.'],
    ]);
    expect(await cardBalance(biz.test, source)).toBe(before);
  });

  it('a revoked restricted key is refused as revoked, not as lacking a scope, also when this process remembers it', async () => {
    const { key } = await issueKey(['read']);
    expect((await apiClient(key).get('/api/v1/card')).status).toBe(200);
    await testDb().execute(sql`UPDATE api_keys SET active = false, revoked_at = now() WHERE id = ${await keyId(key)}`);
    const res = await apiClient(key).post('/api/v1/card/payouts', { card_number: source, destination_card_number: source, amount: 300 });
    expect(res.body).toEqual({ status: 'error', message: 'Forbidden', error: 'The API key is inactive.' });
  });
});

describe('issuing a key with scopes in the back office', () => {
  it('answers the scopes, in their canonical order, and gives every scope when none are named', async () => {
    expect((await issueKey(['payouts', 'read'])).scopes).toEqual(['read', 'payouts']);
    const all = await adminClient().post(`/api/admin/businesses/${biz.id}/api-keys`, { mode: 'live' });
    expect(all.status).toBe(201);
    expect(all.body.data).toMatchObject({ mode: 'live', scopes: ['read', 'cards', 'payments', 'payouts'] });
  });

  it('keys made with the business have every scope', async () => {
    const r = await testDb().execute<{ scopes: string[] }>(sql`SELECT scopes FROM api_keys WHERE business_id = ${biz.id} ORDER BY id LIMIT 2`);
    expect(r.rows.map((row) => row.scopes)).toEqual([
      ['read', 'cards', 'payments', 'payouts'],
      ['read', 'cards', 'payments', 'payouts'],
    ]);
  });

  it.each([
    [[], 'Choose at least one scope.'],
    [['read', 'read'], 'Name each scope once.'],
    [['read', 'refunds'], 'Each scope must be one of read, cards, payments, payouts.'],
    ['read', 'scopes must be an array of scope names: read, cards, payments, payouts.'],
  ])('refuses scopes %j with a validation error and issues nothing', async (scopes, message) => {
    const count = async () => (await testDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM api_keys WHERE business_id = ${biz.id}`)).rows[0].n;
    const before = await count();
    const res = await adminClient().post(`/api/admin/businesses/${biz.id}/api-keys`, { mode: 'test', scopes });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'Validation error', error: { scopes: message } });
    expect(await count()).toBe(before);
  });

  it('the database refuses an empty or unknown scope whatever writes it', async () => {
    for (const scopes of [sql`ARRAY[]::text[]`, sql`ARRAY['read','admin']`]) {
      await expect(testDb().execute(sql`UPDATE api_keys SET scopes = ${scopes} WHERE business_id = ${biz.id}`)).rejects.toMatchObject({
        cause: { constraint: 'api_keys_scopes_check' },
      });
    }
  });
});
