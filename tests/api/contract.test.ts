import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { LIVE_LOOPS, startLiveStack } from '../chapa-harness';
import { sql } from 'drizzle-orm';
import { adminClient, apiClient, createTestBusiness, randomPhone, testDb, type ApiResponse, type TestBusiness } from '../helpers';
import { documentValidator } from '../openapi-validator';

/**
 * Every operation of openapi.json over real HTTP, a success and at least one
 * error each; every answer must fit the document's schema for its status
 * (strict objects: a field the document does not name fails too).
 */
const doc = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../openapi.json'), 'utf8'));
const v = documentValidator(doc);

interface OperationRef {
  pointer: string;
  responses: Record<string, any>;
}

const operations = new Map<string, OperationRef>();
for (const [route, item] of Object.entries<any>(doc.paths)) {
  for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
    if (item[method]) operations.set(item[method].operationId, { pointer: `/paths/${v.escape(route)}/${method}`, responses: item[method].responses });
  }
}

const seen = new Map<string, Set<number>>();

/**
 * Keys in the order the schema lists them (SPEC.md fixes key order), checked
 * through refs, arrays and alternatives; null when the schema does not name
 * these keys (a record, or another alternative's shape).
 */
function keyOrderProblems(value: unknown, schema: any, at = ''): string[] | null {
  if (!schema) return null;
  if (schema.$ref) return keyOrderProblems(value, v.resolve(schema.$ref), at);
  if (Array.isArray(value)) return schema.items ? value.flatMap((x, i) => keyOrderProblems(x, schema.items, `${at}/${i}`) ?? []) : [];
  if (!value || typeof value !== 'object') return [];
  const keys = Object.keys(value);
  if (schema.properties && keys.every((k) => k in schema.properties)) {
    const order = Object.keys(schema.properties);
    const positions = keys.map((k) => order.indexOf(k));
    if (positions.some((p, i) => i > 0 && p < positions[i - 1])) return [`${at || '/'}: keys ${keys.join(',')} not in the order ${order.join(',')}`];
    return keys.flatMap((k) => keyOrderProblems((value as any)[k], schema.properties[k], `${at}/${k}`) ?? []);
  }
  let problems: string[] | null = null;
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    const result = keyOrderProblems(value, alt, at);
    if (result && result.length === 0) return result;
    problems ??= result;
  }
  return problems;
}

/** Checks an answer against the document and records that this operation answered this status. */
function conforms(operationId: string, res: ApiResponse, expectedStatus?: number) {
  const op = operations.get(operationId);
  expect(op, `operation ${operationId} in openapi.json`).toBeDefined();
  if (expectedStatus !== undefined) expect(res.status, `${operationId}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(expectedStatus);
  const response = op!.responses[String(res.status)];
  expect(response, `${operationId} documents status ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`).toBeDefined();
  const pointer = response.$ref ? response.$ref.slice(1) : `${op!.pointer}/responses/${res.status}`;
  const schemaPointer = `${pointer}/content/application~1json/schema`;
  expect(v.validate(schemaPointer, res.body), `${operationId} ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`).toEqual([]);
  expect(keyOrderProblems(res.body, v.resolve(`#${schemaPointer}`)) ?? []).toEqual([]);
  if (!seen.has(operationId)) seen.set(operationId, new Set());
  seen.get(operationId)!.add(res.status);
  return res.body;
}

let a: TestBusiness;
let b: TestBusiness;
let bizA: string;
const admin = adminClient();

beforeAll(async () => {
  const created = await admin.post('/api/admin/businesses', { name: 'Contract Co' });
  conforms('createBusiness', created, 201);
  a = await createTestBusiness('Contract A');
  b = await createTestBusiness('Contract B');
  bizA = `/api/admin/businesses/${a.id}`;
});

describe('back office', () => {
  it('createBusiness: 401 without the token, 400 without a name', async () => {
    conforms('createBusiness', await apiClient().post('/api/admin/businesses', { name: 'x' }), 401);
    conforms('createBusiness', await admin.post('/api/admin/businesses', {}), 400);
  });

  it('issueApiKey, createUser', async () => {
    conforms('issueApiKey', await admin.post(`${bizA}/api-keys`, { mode: 'test', active: true }), 201);
    conforms('issueApiKey', await admin.post('/api/admin/businesses/999999999/api-keys', { mode: 'test' }), 404);
    conforms('issueApiKey', await admin.post(`${bizA}/api-keys`, { mode: 'staging' }), 400);
    conforms(
      'createUser',
      await admin.post(`${bizA}/users`, { email: `ops-${Date.now()}@example.com`, password: 'long-enough-password', role: 'operator' }),
      201,
    );
    conforms('createUser', await admin.post(`${bizA}/users`, { email: 'not-an-email', password: 'x', role: 'owner' }), 400);
  });

  it('setFeeSchedule, creditBusinessAccount', async () => {
    conforms(
      'setFeeSchedule',
      await admin.put(`${bizA}/fees`, { mode: 'test', rules: [{ applies_to: 'payment', percent: '1.5', fixed: 10, min: 0, max: 100000 }] }),
      200,
    );
    conforms('setFeeSchedule', await admin.put(`${bizA}/fees`, { mode: 'test', rules: [{ applies_to: 'nothing' }] }), 400);
    conforms('creditBusinessAccount', await admin.post(`${bizA}/balance`, { mode: 'test', currency: 'ETB', amount: 10_000_000 }), 200);
    conforms('creditBusinessAccount', await admin.post(`${bizA}/balance`, { mode: 'test', currency: 'ETB', amount: 1 }), 400);
  });

  it('registerWebhook, rotateWebhookSecret, listDeliveries, replayWebhooks', async () => {
    conforms('registerWebhook', await admin.put(`${bizA}/webhook`, { mode: 'test', url: 'http://127.0.0.1:9/contract-hook' }), 200);
    conforms('registerWebhook', await admin.put(`${bizA}/webhook`, { mode: 'live', url: 'http://127.0.0.1:9/contract-hook' }), 400);
    conforms('rotateWebhookSecret', await admin.post(`${bizA}/webhook/rotate`, { mode: 'test', overlap_hours: 1 }), 200);
    conforms('rotateWebhookSecret', await admin.post(`${bizA}/webhook/rotate`, { mode: 'live' }), 404);
    conforms('listDeliveries', await admin.get(`${bizA}/webhook/deliveries?mode=test`), 200);
    conforms('listDeliveries', await admin.get(`${bizA}/webhook/deliveries?mode=staging`), 400);
    const now = Date.now();
    const range = { mode: 'test', from: new Date(now - 3_600_000).toISOString(), to: new Date(now + 3_600_000).toISOString() };
    conforms('replayWebhooks', await admin.post(`${bizA}/webhook/replay`, range), 200);
    conforms('replayWebhooks', await admin.post(`${bizA}/webhook/replay`, { mode: 'test', event_id: 'msg_unknown' }), 404);
    const limits = { mode: 'test', currency: 'USD', max_payout: 500_000, daily_payout: null, max_card_balance: null };
    conforms('setLimits', await admin.put(`${bizA}/limits`, limits), 200);
    conforms('setLimits', await admin.put(`${bizA}/limits`, { ...limits, max_payout: -1 }), 400);
    conforms('setLimits', await admin.put(`${bizA}/limits`, { ...limits, max_payout: null }), 200);
    conforms('getLimits', await admin.get(`${bizA}/limits?mode=test`), 200);
    conforms('getLimits', await admin.get('/api/admin/businesses/999999999/limits?mode=test'), 404);
    conforms('setBusinessLocale', await admin.put(`${bizA}/locale`, { customer_language: 'am', calendar: 'ethiopic' }), 200);
    conforms('setBusinessLocale', await admin.put(`${bizA}/locale`, { customer_language: 'fr', calendar: 'ethiopic' }), 400);
    conforms('getBusinessLocale', await admin.get(`${bizA}/locale`), 200);
    conforms('getBusinessLocale', await admin.get('/api/admin/businesses/999999999/locale'), 404);
    conforms('getShop', await admin.get(`${bizA}/shop`), 404);
    const shop = {
      enabled: true,
      mode: 'test',
      slug: `contract-${Date.now()}`,
      currency: 'ETB',
      preset_amounts: [50_000],
      min_amount: 10_000,
      max_amount: 100_000,
      headline: null,
      color: null,
    };
    conforms('setShop', await admin.put(`${bizA}/shop`, shop), 200);
    conforms('setShop', await admin.put(`${bizA}/shop`, { ...shop, slug: 'No' }), 400);
    conforms('getShop', await admin.get(`${bizA}/shop`), 200);
    conforms('listBusinesses', await admin.get('/api/admin/businesses?search=Contract&limit=5'), 200);
    conforms('listBusinesses', await admin.get(`/api/admin/businesses?search=${'x'.repeat(201)}`), 400);
  });

  it('listJobs, retryJob: a dead job listed and given another round', async () => {
    // A dead refund job of no refund: its handler, given the retry, finds nothing to send and ends it.
    const { rows } = await testDb().execute<{ id: number }>(sql`
      INSERT INTO jobs (kind, subject, business_id, mode, state, attempts, max_attempts, last_error, finished_at)
      VALUES ('refund', ${`rfd_contract_${Date.now()}`}, ${a.id}, 'test', 'dead', 3, 3, 'Chapa unavailable', now()) RETURNING id::int AS id`);
    const listed = conforms('listJobs', await admin.get(`/api/admin/jobs?state=dead&business_id=${a.id}&mode=test&limit=5`), 200);
    expect(listed.data.items.map((j: { id: number }) => j.id)).toContain(rows[0].id);
    conforms('listJobs', await admin.get('/api/admin/jobs?kind=sms'), 400);
    conforms('retryJob', await admin.post(`/api/admin/jobs/${rows[0].id}/retry`, { max_attempts: 5 }), 200);
    conforms('retryJob', await admin.post(`/api/admin/jobs/${rows[0].id}/retry`), 409);
    conforms('retryJob', await admin.post('/api/admin/jobs/999999999/retry'), 404);
    conforms('retryJob', await admin.post(`/api/admin/jobs/${rows[0].id}/retry`, { max_attempts: 'many' }), 400);
  });
});

describe('REST API', () => {
  let card: string;
  let second: string;
  let phone: string;

  it('createCard: 201, 401, 400, 404, 409', async () => {
    phone = randomPhone();
    card = conforms('createCard', await a.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Contract', last_name: 'Holder' }), 201)
      .data.card_number;
    second = conforms('createCard', await a.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Second' }), 201).data
      .card_number;
    conforms('createCard', await apiClient().post('/api/v1/card', { phone_number: phone, currency: 'ETB' }), 401);
    conforms('createCard', await a.test.post('/api/v1/card', { phone_number: phone, currency: 'EUR' }), 400);
    conforms('createCard', await a.test.post('/api/v1/card', { phone_number: '0911234567', currency: 'ETB' }), 400);
    conforms('createCard', await a.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'USD' }), 404);
    conforms('createCard', await a.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB' }), 409);
  });

  it('listCards, getCard: 200, 400, 403, 404', async () => {
    conforms('listCards', await a.test.get(`/api/v1/card?limit=2&phone_number=${phone.slice(4)}`), 200);
    conforms('listCards', await a.test.get('/api/v1/card?limit=0'), 400);
    const inactive = conforms('issueApiKey', await admin.post(`${bizA}/api-keys`, { mode: 'test', active: false }), 201).data.key;
    conforms('listCards', await apiClient(inactive).get('/api/v1/card'), 403);
    conforms('getCard', await a.test.get(`/api/v1/card/${card}`), 200);
    conforms('getCard', await a.test.get('/api/v1/card/0000000000000000'), 404);
    conforms('getCard', await b.test.get(`/api/v1/card/${card}`), 404);
  });

  it('setCardStatus, the provider disable, cancelCard', async () => {
    conforms('setCardStatus', await a.test.patch(`/api/v1/card/${second}`, { status: 'disable' }), 200);
    conforms('setCardStatus', await a.test.patch(`/api/v1/card/${second}`, { status: 'disable' }), 409);
    conforms('setCardStatus', await a.test.patch(`/api/v1/card/${second}`, { status: 'pause' }), 400);
    conforms('setCardStatus', await a.test.patch(`/api/v1/card/${second}`, { status: 'enable' }), 200);
    conforms('disableCardAsProvider', await admin.post(`/api/admin/cards/${second}/disable`), 200);
    conforms('setCardStatus', await a.test.patch(`/api/v1/card/${second}`, { status: 'enable' }), 403);
    conforms('enableCardAsProvider', await admin.post(`/api/admin/cards/${second}/enable`), 200);
    conforms('disableCardAsProvider', await admin.post('/api/admin/cards/0000000000000000/disable'), 404);
    conforms('enableCardAsProvider', await admin.post('/api/admin/cards/0000000000000000/enable'), 404);
    conforms('enableCardAsProvider', await apiClient().post(`/api/admin/cards/${second}/enable`), 401);
    conforms('cancelCard', await a.test.delete(`/api/v1/card/${second}`), 200);
    conforms('cancelCard', await a.test.delete(`/api/v1/card/${second}`), 404);
  });

  it('createTransfer, settlePayout, getPayoutStatus', async () => {
    const transfer = conforms(
      'createTransfer',
      await a.test.post('/api/v1/transfers', { amount: 500_000, bank_slug: 'link', account_number: card, account_name: 'Top-up' }),
      200,
    );
    conforms('createTransfer', await a.test.post('/api/v1/transfers', { amount: 500, bank_slug: 'cbe', account_number: card, account_name: 'Top-up' }), 400);
    conforms(
      'createTransfer',
      await a.test.post('/api/v1/transfers', { amount: 10 ** 11, bank_slug: 'link', account_number: card, account_name: 'Too much' }),
      400,
    );
    const ref = transfer.data.provider_reference;
    conforms('settlePayout', await a.test.post(`/api/v1/test-helpers/payouts/${ref}/settle`, { status: 'success' }), 200);
    conforms('settlePayout', await a.test.post('/api/v1/test-helpers/payouts/trf_unknown/settle', { status: 'success' }), 404);
    conforms('settlePayout', await a.test.post(`/api/v1/test-helpers/payouts/${ref}/settle`, { status: 'done' }), 400);
    conforms('settlePayout', await a.live.post(`/api/v1/test-helpers/payouts/${ref}/settle`, { status: 'success' }), 404);
    conforms('getPayoutStatus', await a.test.get(`/api/v1/card/payout/${ref}/status`), 200);
    conforms('getPayoutStatus', await a.test.get('/api/v1/card/payout/nothing/status'), 404);
  });

  it('createPayout of each type, listPayouts', async () => {
    const c2c = await createTestCard(a);
    conforms('createPayout', await a.test.post('/api/v1/card/payouts', { card_number: card, destination_card_number: c2c, amount: 1000 }), 200);
    conforms(
      'createPayout',
      await a.test.post('/api/v1/card/payouts', { card_number: card, merchant_id: b.merchant_id, amount: 1000, charge_payer: 'customer' }),
      200,
    );
    const bank = conforms(
      'createPayout',
      await a.test.post('/api/v1/card/payouts', { card_number: card, amount: 1000, bank_slug: 'cbe', account_number: '1000123450000', account_name: 'Fails' }),
      200,
    );
    conforms('settlePayout', await a.test.post(`/api/v1/test-helpers/payouts/${bank.data.provider_reference}/settle`, { status: 'failed' }), 200);
    conforms('createPayout', await a.test.post('/api/v1/card/payouts', { card_number: card, destination_card_number: card, amount: 1000 }), 400);
    conforms(
      'createPayout',
      await a.test.post('/api/v1/card/payouts', { card_number: card, destination_card_number: c2c, merchant_id: b.merchant_id, amount: 1000 }),
      400,
    );
    conforms('createPayout', await a.test.post('/api/v1/card/payouts', { card_number: '0000000000000000', merchant_id: b.merchant_id, amount: 1000 }), 404);
    conforms('createPayout', await a.test.post('/api/v1/card/payouts', { card_number: card, merchant_id: b.merchant_id, amount: 10 ** 11 }), 400);
    conforms(
      'createPayout',
      await a.live.post('/api/v1/card/payouts', { card_number: card, amount: 1000, bank_slug: 'cbe', account_number: '1000123456789', account_name: 'x' }),
      404,
    );
    conforms('listPayouts', await a.test.get('/api/v1/card/payouts?limit=100'), 200);
    conforms('listPayouts', await a.test.get('/api/v1/card/payouts?limit=101'), 400);
  });

  it('createCardsBatch, createPayoutsBatch: 200 with per-item results (cards, payouts and refusals), 400 for a malformed batch', async () => {
    const newPhone = randomPhone();
    const cards = conforms(
      'createCardsBatch',
      await a.test.post('/api/v1/card/batch', {
        cards: [
          { phone_number: newPhone, currency: 'ETB', first_name: 'Batch' },
          { phone_number: newPhone, currency: 'ETB' },
          { phone_number: '0911', currency: 'ETB' },
        ],
      }),
      200,
    );
    expect(cards.data.results.map((r: any) => r.status)).toEqual([1, 'error', 'error']);
    conforms('createCardsBatch', await a.test.post('/api/v1/card/batch', { cards: {} }), 400);
    const destination = cards.data.results[0].card_number;
    const payouts = conforms(
      'createPayoutsBatch',
      await a.test.post('/api/v1/card/payouts/batch', {
        payouts: [
          { card_number: card, destination_card_number: destination, amount: 1000 },
          { card_number: card, merchant_id: b.merchant_id, amount: 1000 },
          { card_number: card, amount: 1000, bank_slug: 'cbe', account_number: '1000123456789', account_name: 'Batch' },
          { card_number: card, destination_card_number: destination, amount: 10 ** 11 },
        ],
      }),
      200,
    );
    expect(payouts.data.results.map((r: any) => r.status ?? 'c2c')).toEqual(['c2c', 'SUCCESS', 'PENDING', 'error']);
    conforms('createPayoutsBatch', await a.test.post('/api/v1/card/payouts/batch', { payouts: Array(101).fill({}) }), 400);
  });

  it('createPayment (hosted and direct charge), completePayment, getPaymentStatus, listPayments', async () => {
    const ref = `order-${Date.now()}`;
    const hosted = conforms(
      'createPayment',
      await a.test.post('/api/v1/card/payments', { type: 'hosted', amount: 10_000, card_number: card, merchant_reference: ref }),
      201,
    );
    conforms(
      'createPayment',
      await a.test.post('/api/v1/card/payments', {
        type: 'direct-charge',
        amount: 10_000,
        card_number: card,
        phone_number: randomPhone(),
        payment_method: 'telebirr',
      }),
      201,
    );
    conforms('createPayment', await a.test.post('/api/v1/card/payments', { type: 'hosted', amount: 10_000, card_number: card, merchant_reference: ref }), 409);
    conforms('createPayment', await a.test.post('/api/v1/card/payments', { type: 'direct-charge', amount: 10_000, card_number: card }), 400);
    const link = hosted.data.link_reference;
    conforms('completePayment', await a.test.post(`/api/v1/test-helpers/payments/${link}/complete`, { status: 'cancelled' }), 200);
    conforms('completePayment', await a.test.post('/api/v1/test-helpers/payments/pay_unknown/complete', { status: 'success' }), 404);
    conforms('completePayment', await a.test.post(`/api/v1/test-helpers/payments/${link}/complete`, { status: 'refunded' }), 400);
    conforms('getPaymentStatus', await a.test.get(`/api/v1/card/payment/${link}/status`), 200);
    conforms('getPaymentStatus', await b.test.get(`/api/v1/card/payment/${link}/status`), 404);
    conforms('listPayments', await a.test.get('/api/v1/card/payments?offset=0&limit=5'), 200);
    conforms('listPayments', await a.test.get('/api/v1/card/payments?page=0'), 400);
  });

  it('live mode through Chapa (a second server against tools/chapa-fake): createPayment with next_action, authorizePayment', async () => {
    const stack = await startLiveStack({ databaseUrl: inject('databaseUrl'), adminToken: inject('adminToken'), loops: LIVE_LOOPS });
    try {
      await stack.fake.switches({ chargeAuthType: 'otp' });
      const biz = await stack.createBusiness('Contract live');
      const live = apiClient(biz.keys.live, stack.baseUrl);
      const liveCard = (await live.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Live' })).body.data.card_number;
      conforms('createPayment', await live.post('/api/v1/card/payments', { type: 'hosted', amount: 1_000, card_number: liveCard }), 201);
      const charge = conforms(
        'createPayment',
        await live.post('/api/v1/card/payments', {
          type: 'direct-charge',
          amount: 1_000,
          card_number: liveCard,
          phone_number: '+251900123456',
          payment_method: 'telebirr',
        }),
        201,
      );
      const path = `/api/v1/card/payment/${charge.data.link_reference}/authorize`;
      conforms('authorizePayment', await live.post(path, { otp: '1' }), 400);
      conforms('authorizePayment', await live.post('/api/v1/card/payment/pay_unknown/authorize', { otp: '12345' }), 404);
      conforms('authorizePayment', await live.post(path, { otp: '12345' }), 200);
    } finally {
      await stack.stop();
    }
  });

  it('listBanks, listEvents (with the payloads of every kind so far)', async () => {
    conforms('listBanks', await a.test.get('/api/v1/banks'), 200);
    conforms('listBanks', await apiClient('sk_test_not_a_real_key_000000000000').get('/api/v1/banks'), 401);
    const events = conforms('listEvents', await a.test.get('/api/v1/events?limit=100'), 200);
    expect(new Set(events.data.items.map((e: any) => e.type))).toEqual(new Set(['payout.success', 'payout.failed', 'payment.cancelled']));
    conforms('listEvents', await a.test.get('/api/v1/events?type=payout.failed&undelivered=true'), 200);
    conforms('listEvents', await a.test.get('/api/v1/events?type=payout.pending'), 400);
  });

  it('refundPayment, and the refund’s event in listEvents', async () => {
    const card = await createTestCard(a);
    const paid = conforms('createPayment', await a.test.post('/api/v1/card/payments', { type: 'hosted', amount: 5_000, card_number: card }), 201);
    await a.test.post(`/api/v1/test-helpers/payments/${paid.data.link_reference}/complete`, { status: 'success' });
    const refundPath = `/api/v1/card/payments/${paid.data.link_reference}/refund`;
    conforms('refundPayment', await a.test.post(refundPath, { amount: 1_000, reason: 'Returned' }), 200);
    conforms('refundPayment', await a.test.post(refundPath, { amount: 10_000 }), 400);
    const pending = await a.test.post('/api/v1/card/payments', { type: 'hosted', amount: 1_000, card_number: card });
    conforms('refundPayment', await a.test.post(`/api/v1/card/payments/${pending.body.data.link_reference}/refund`, {}), 400);
    conforms('refundPayment', await b.test.post(refundPath, {}), 404);
    conforms('getPaymentStatus', await a.test.get(`/api/v1/card/payment/${paid.data.link_reference}/status`), 200);
    const refunded = conforms('listEvents', await a.test.get('/api/v1/events?type=payment.refunded'), 200);
    expect(refunded.data.items.map((e: any) => e.payload.refund_reference)).toHaveLength(1);
    // A test-mode refund has ended at once: the back office answers it unchanged.
    const refundReference = refunded.data.items[0].payload.refund_reference;
    conforms('settleRefundByHand', await admin.post(`/api/admin/refunds/${refundReference}/settle`, { status: 'failed' }), 200);
    conforms('settleRefundByHand', await admin.post(`/api/admin/refunds/${refundReference}/settle`, { status: 'maybe' }), 400);
    conforms('settleRefundByHand', await admin.post('/api/admin/refunds/rfd_unknown/settle', { status: 'failed' }), 404);
  });

  it('redeemCard, and the redemption’s event in listEvents', async () => {
    const card = await createTestCard(a);
    const paid = conforms('createPayment', await a.test.post('/api/v1/card/payments', { type: 'hosted', amount: 5_000, card_number: card }), 201);
    await a.test.post(`/api/v1/test-helpers/payments/${paid.data.link_reference}/complete`, { status: 'success' });
    const path = `/api/v1/card/${card}/redemptions`;
    const redeemed = conforms('redeemCard', await a.test.post(path, { amount: 1_000, merchant_reference: 'till-1' }), 200);
    conforms('redeemCard', await a.test.post(path, { amount: 10_000 }), 400);
    conforms('redeemCard', await a.test.post(path, { amount: 'ten' }), 400);
    conforms('redeemCard', await b.test.post(path, { amount: 100 }), 404);
    const events = conforms('listEvents', await a.test.get('/api/v1/events?type=card.redeemed'), 200);
    expect(events.data.items.map((e: any) => e.payload.reference)).toContain(redeemed.data.reference);
  });

  it('redeemCard and captureHold over the code threshold (202), and confirmSpend', async () => {
    const c = await createTestBusiness('Contract codes');
    expect((await admin.put(`/api/admin/businesses/${c.id}/limits`, { mode: 'test', currency: 'ETB', spend_code_over: 1_000 })).status).toBe(200);
    const card = await createTestCard(c);
    const paid = conforms('createPayment', await c.test.post('/api/v1/card/payments', { type: 'hosted', amount: 9_000, card_number: card }), 201);
    await c.test.post(`/api/v1/test-helpers/payments/${paid.data.link_reference}/complete`, { status: 'success' });
    const waiting = conforms('redeemCard', await c.test.post(`/api/v1/card/${card}/redemptions`, { amount: 2_000, merchant_reference: 'till-9' }), 202);
    const confirmPath = (r: string) => `/api/v1/card/confirmations/${r}`;
    conforms('confirmSpend', await c.test.post(confirmPath(waiting.data.confirmation_reference), { code: '123456' }), 400);
    conforms('confirmSpend', await c.test.post(confirmPath(waiting.data.confirmation_reference), { code: 'abc' }), 400);
    conforms('confirmSpend', await b.test.post(confirmPath(waiting.data.confirmation_reference), { code: '000000' }), 404);
    conforms('confirmSpend', await c.test.post(confirmPath(waiting.data.confirmation_reference), { code: '000000' }), 200);
    conforms('confirmSpend', await c.test.post(confirmPath(waiting.data.confirmation_reference), { code: '000000' }), 409);
    const hold = conforms('placeHold', await c.test.post(`/api/v1/card/${card}/holds`, { amount: 3_000 }), 201);
    const capture = conforms('captureHold', await c.test.post(`/api/v1/card/holds/${hold.data.hold_reference}/capture`, {}), 202);
    expect(conforms('confirmSpend', await c.test.post(confirmPath(capture.data.confirmation_reference), { code: '000000' }), 200).data.status).toBe('captured');
  });

  it('createLocation, listLocations, and location_id in a redemption and a hold', async () => {
    const name = `Branch ${Date.now()}`;
    const made = conforms('createLocation', await a.test.post('/api/v1/locations', { name }), 201);
    conforms('createLocation', await a.test.post('/api/v1/locations', { name: name.toUpperCase() }), 409);
    conforms('createLocation', await a.test.post('/api/v1/locations', { name: '' }), 400);
    expect(conforms('listLocations', await a.test.get('/api/v1/locations'), 200).data).toContainEqual(made.data);
    conforms('listLocations', await apiClient().get('/api/v1/locations'), 401);
    const card = await createTestCard(a);
    const paid = conforms('createPayment', await a.test.post('/api/v1/card/payments', { type: 'hosted', amount: 5_000, card_number: card }), 201);
    await a.test.post(`/api/v1/test-helpers/payments/${paid.data.link_reference}/complete`, { status: 'success' });
    const at = { amount: 100, location_id: made.data.id };
    expect(conforms('redeemCard', await a.test.post(`/api/v1/card/${card}/redemptions`, at), 200).data.location_id).toBe(made.data.id);
    expect(conforms('placeHold', await a.test.post(`/api/v1/card/${card}/holds`, at), 201).data.location_id).toBe(made.data.id);
    const other = await createTestCard(b);
    conforms('redeemCard', await b.test.post(`/api/v1/card/${other}/redemptions`, at), 404);
  });

  it('placeHold, listCardHolds, getHold, captureHold, voidHold, and the holds’ events in listEvents', async () => {
    const card = await createTestCard(a);
    const paid = conforms('createPayment', await a.test.post('/api/v1/card/payments', { type: 'hosted', amount: 5_000, card_number: card }), 201);
    await a.test.post(`/api/v1/test-helpers/payments/${paid.data.link_reference}/complete`, { status: 'success' });
    const path = `/api/v1/card/${card}/holds`;
    const first = conforms('placeHold', await a.test.post(path, { amount: 2_000, merchant_reference: 'pump 4' }), 201);
    const second = conforms('placeHold', await a.test.post(path, { amount: 1_000, expires_in_seconds: 60 }), 201);
    conforms('placeHold', await a.test.post(path, { amount: 10_000 }), 400);
    conforms('placeHold', await a.test.post(path, { amount: 100, expires_in_seconds: 0 }), 400);
    conforms('placeHold', await b.test.post(path, { amount: 100 }), 404);
    conforms('listCardHolds', await a.test.get(path), 200);
    conforms('listCardHolds', await a.test.get(`${path}?limit=0`), 400);
    conforms('listCardHolds', await b.test.get(path), 404);
    const hold = (r: string) => `/api/v1/card/holds/${r}`;
    conforms('getHold', await a.test.get(hold(first.data.hold_reference)), 200);
    conforms('getHold', await b.test.get(hold(first.data.hold_reference)), 404);
    conforms('captureHold', await a.test.post(`${hold(first.data.hold_reference)}/capture`, { amount: 2_001 }), 400);
    conforms('captureHold', await a.test.post(`${hold(first.data.hold_reference)}/capture`, { amount: 1_500 }), 200);
    conforms('captureHold', await a.test.post(`${hold(first.data.hold_reference)}/capture`, { amount: 1_000 }), 409);
    conforms('captureHold', await b.test.post(`${hold(first.data.hold_reference)}/capture`, {}), 404);
    conforms('voidHold', await a.test.post(`${hold(first.data.hold_reference)}/void`), 409);
    conforms('voidHold', await a.test.post(`${hold(second.data.hold_reference)}/void`), 200);
    conforms('voidHold', await b.test.post(`${hold(second.data.hold_reference)}/void`), 404);
    conforms('captureHold', await a.test.post(`${hold(second.data.hold_reference)}/capture`), 409);
    const events = conforms('listEvents', await a.test.get('/api/v1/events?type=hold.captured'), 200);
    expect(events.data.items.map((e: any) => e.payload.hold_reference)).toContain(first.data.hold_reference);
    conforms('listEvents', await a.test.get('/api/v1/events?type=hold.created'), 200);
    conforms('listEvents', await a.test.get('/api/v1/events?type=hold.voided'), 200);
  });

  it('listShopOrders: a page of the shop orders, and a bad page is 400', async () => {
    conforms('listShopOrders', await a.test.get('/api/v1/shop/orders?phone=0911'), 200);
    conforms('listShopOrders', await a.test.get('/api/v1/shop/orders?limit=0'), 400);
  });

  it('shareCard, listCardMessages: 202 with the link, the card’s messages, 400 and 404', async () => {
    const card = await createTestCard(a);
    conforms('shareCard', await a.test.post(`/api/v1/card/${card}/share`, { channel: 'none' }), 202);
    const shared = conforms('shareCard', await a.test.post(`/api/v1/card/${card}/share`, { channel: 'sms' }), 202);
    expect(shared.data.status).toBe('not_sent_test_mode');
    conforms('shareCard', await a.test.post(`/api/v1/card/${card}/share`, { channel: 'pigeon' }), 400);
    conforms('shareCard', await b.test.post(`/api/v1/card/${card}/share`, { channel: 'sms' }), 404);
    const page = conforms('listCardMessages', await a.test.get(`/api/v1/card/${card}/messages`), 200);
    expect(page.data.items[0].message_reference).toBe(shared.data.message_reference);
    conforms('listCardMessages', await a.test.get(`/api/v1/card/${card}/messages?page=0`), 400);
    conforms('listCardMessages', await b.test.get(`/api/v1/card/${card}/messages`), 404);
  });

  it('Idempotency-Key: a reuse with another body is 409; a body over 1 MB is 413', async () => {
    const key = `contract-${Date.now()}`;
    conforms(
      'createCard',
      await a.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'USD', first_name: 'Idem' }, { headers: { 'idempotency-key': key } }),
      201,
    );
    conforms(
      'createCard',
      await a.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'USD', first_name: 'Other' }, { headers: { 'idempotency-key': key } }),
      409,
    );
    conforms('createPayment', await a.test.post('/api/v1/card/payments', undefined, { raw: JSON.stringify({ pad: 'x'.repeat(1_100_000) }) }), 413);
  });

  it('getOpenApiDocument: served without a key, the checked-in document with this server as the default address', async () => {
    const res = await apiClient().get('/api/v1/openapi.json');
    conforms('getOpenApiDocument', res, 200);
    expect(res.body.servers[0].variables.app_url.default).toBe(inject('baseUrl'));
    expect({ ...res.body, servers: doc.servers, paths: undefined }).toEqual({ ...doc, paths: undefined });
  });
});

async function createTestCard(biz: TestBusiness) {
  const res = await biz.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Receiver' });
  conforms('createCard', res, 201);
  return res.body.data.card_number as string;
}

afterAll(() => {
  // Only meaningful when every test above ran.
  if (seen.size === 0) return;
  const missing: string[] = [];
  for (const [id, op] of operations) {
    const statuses = [...(seen.get(id) ?? [])];
    if (!statuses.some((s) => s < 300)) missing.push(`${id}: no success`);
    const documentsErrors = Object.keys(op.responses).some((s) => Number(s) >= 400);
    if (documentsErrors && !statuses.some((s) => s >= 400)) missing.push(`${id}: no error`);
  }
  expect(missing).toEqual([]);
});
