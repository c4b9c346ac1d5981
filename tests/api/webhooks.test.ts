import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../lib/webhooks/outbox';
import { paymentEventPayload, payoutEventPayload, type EventType } from '../../lib/webhooks/payloads';
import { adminClient, createTestBusiness, testDb, waitFor, type TestBusiness } from '../helpers';
import { startReceiver } from './webhooks-receiver';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const hmacHex = (key: string, msg: string | Buffer) => createHmac('sha256', key).update(msg).digest('hex');

async function emit(business: TestBusiness, mode: 'test' | 'live', payload: Record<string, unknown>, reference = `ref_${Math.random()}`) {
  return testDb().transaction((tx) =>
    enqueueEvent(tx, { businessId: business.id, mode, type: payload.event as EventType, payload, subjectReference: reference }),
  );
}

async function registerUrl(business: TestBusiness, mode: 'test' | 'live', url: string, secret?: string) {
  return adminClient().put(`/api/admin/businesses/${business.id}/webhook`, { mode, url, ...(secret && { secret }) });
}

const at = new Date('2026-03-01T10:00:00.123Z');
const customer = { first_name: 'Abebe', last_name: 'Kebede', email: 'a@example.com', phone_number: '+251911234567' };

/** Every event type and payout type, once with every optional field and once with none. */
const variants: Record<string, Record<string, unknown>> = {
  c2c_full: payoutEventPayload({
    status: 'success',
    mode: 'test',
    payoutType: 'card_to_card',
    currency: 'ETB',
    amount: 1500,
    reference: 'init_1',
    customer,
    sourceCardNumber: '4000000000000002',
    destinationCardNumber: '4000000000000010',
    createdAt: at,
    updatedAt: at,
  }),
  c2c_bare: payoutEventPayload({
    status: 'failed',
    mode: 'test',
    payoutType: 'card_to_card',
    currency: 'ETB',
    amount: 1500,
    reference: 'init_2',
    createdAt: at,
    updatedAt: at,
  }),
  bank_full: payoutEventPayload({
    status: 'success',
    mode: 'test',
    payoutType: 'bank',
    currency: 'USD',
    amount: 900,
    reference: 'prov_1',
    customer,
    sourceCardNumber: '4000000000000002',
    bankSlug: 'cbe',
    accountNumber: '1000123456789',
    accountName: 'Abebe K',
    createdAt: at,
    updatedAt: at,
  }),
  bank_failed: payoutEventPayload({
    status: 'failed',
    mode: 'test',
    payoutType: 'bank',
    currency: 'USD',
    amount: 900,
    reference: 'prov_2',
    sourceCardNumber: '4000000000000002',
    bankSlug: 'cbe',
    accountNumber: '1000123450000',
    createdAt: at,
    updatedAt: at,
  }),
  b2b: payoutEventPayload({
    status: 'success',
    mode: 'test',
    payoutType: 'b2b',
    currency: 'ETB',
    amount: 100,
    reference: 'prov_3',
    sourceCardNumber: '4000000000000002',
    merchantId: 'mer_x',
    createdAt: at,
    updatedAt: at,
  }),
  pay_ok: paymentEventPayload({
    status: 'success',
    mode: 'test',
    paymentType: 'link',
    currency: 'ETB',
    amount: 5000,
    serviceFee: 50,
    merchantReference: 'order-1',
    serviceReference: 'lnk_1',
    processorReference: 'proc_1',
    paymentMethod: 'telebirr',
    customer,
    createdAt: at,
    updatedAt: at,
  }),
  pay_failed: paymentEventPayload({
    status: 'failed',
    mode: 'test',
    paymentType: 'link',
    currency: 'ETB',
    amount: 5000,
    serviceFee: 0,
    serviceReference: 'lnk_2',
    createdAt: at,
    updatedAt: at,
  }),
  pay_cancelled: paymentEventPayload({
    status: 'cancelled',
    mode: 'test',
    paymentType: 'link',
    currency: 'ETB',
    amount: 5000,
    serviceFee: 0,
    serviceReference: 'lnk_3',
    customer: { email: 'b@example.com' },
    createdAt: at,
    updatedAt: at,
  }),
};

const SPEC_ORDER = [
  'event',
  'status',
  'mode',
  'payout_type',
  'payment_type',
  'currency',
  'amount',
  'service_fee',
  'merchant_reference',
  'initiator_reference',
  'provider_reference',
  'service_reference',
  'processor_reference',
  'payment_method',
  'customer',
  'meta',
  'created_at',
  'updated_at',
];

describe('webhook delivery to a registered URL', () => {
  let business: TestBusiness;
  let receiver: Receiver;
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

  beforeAll(async () => {
    business = await createTestBusiness('Webhook payloads');
    receiver = await startReceiver();
    const res = await registerUrl(business, 'test', `${receiver.url}/hook`, secret);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ mode: 'test', url: `${receiver.url}/hook`, secret });
  });
  afterAll(() => receiver.close());

  it('sends SPEC.md bytes in SPEC.md key order, signed three ways, for every event and payout type', async () => {
    const ids = new Map<string, string>();
    for (const [name, payload] of Object.entries(variants)) ids.set(await emit(business, 'test', payload), name);
    await receiver.waitFor((rs) => [...ids.keys()].every((id) => rs.some((r) => r.headers['webhook-id'] === id)));
    const wh = new Webhook(secret);
    for (const [id, name] of ids) {
      const req = receiver.requests.find((r) => r.headers['webhook-id'] === id)!;
      const text = req.body.toString('utf8');
      expect(text, name).toBe(JSON.stringify(variants[name]));
      expect(text).not.toContain('null');
      const keys = Object.keys(JSON.parse(text));
      expect(keys).toEqual([...keys].sort((a, b) => SPEC_ORDER.indexOf(a) - SPEC_ORDER.indexOf(b)));
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers['service-signature']).toBe(hmacHex(secret, secret));
      expect(req.headers['service-signature']).toMatch(/^[0-9a-f]{64}$/);
      expect(req.headers['x-service-signature']).toBe(hmacHex(secret, req.body));
      expect(() => wh.verify(req.body, req.headers as Record<string, string>)).not.toThrow();
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 8).toString('base64')}`).verify(req.body, req.headers as Record<string, string>)).toThrow();
    }
    expect(Object.keys(JSON.parse(JSON.stringify(variants.c2c_bare)))).toEqual([
      'event',
      'status',
      'mode',
      'payout_type',
      'currency',
      'amount',
      'initiator_reference',
      'created_at',
      'updated_at',
    ]);
  });

  it('also delivers every event to the dashboard endpoint, which verifies and keeps it once', async () => {
    const id = await emit(business, 'test', variants.pay_ok);
    // The receiver commits before the worker records the attempt: wait for both deliveries to be marked.
    const states = await waitFor(async () => {
      const { rows } = await testDb().execute<{ kind: string; state: string }>(sql`
        SELECT w.kind, d.state FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
        JOIN webhook_events e ON e.id = d.event_id WHERE e.event_id = ${id} ORDER BY w.kind`);
      return rows.length && rows.every((r) => r.state === 'delivered') ? rows : undefined;
    }, 20_000);
    expect(states).toEqual([
      { kind: 'business', state: 'delivered' },
      { kind: 'dashboard', state: 'delivered' },
    ]);
    const { rows } = await testDb().execute(sql`SELECT 1 FROM received_webhooks WHERE webhook_id = ${id}`);
    expect(rows).toHaveLength(1);
  });

  it('reaches the dashboard endpoint where the app serves now, not where it served when the business was made', async () => {
    const moved = await createTestBusiness('Moved app');
    await testDb().execute(
      sql`UPDATE webhook_endpoints SET url = 'http://127.0.0.1:1/api/webhooks/old' WHERE business_id = ${moved.id} AND kind = 'dashboard'`,
    );
    const id = await emit(moved, 'test', variants.pay_ok);
    const delivered = await waitFor(async () => {
      const { rows } = await testDb().execute<{ state: string }>(sql`
        SELECT d.state FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE e.event_id = ${id}`);
      return rows[0]?.state === 'delivered' ? rows : undefined;
    }, 20_000);
    expect(delivered).toEqual([{ state: 'delivered' }]);
    const { rows } = await testDb().execute(sql`SELECT 1 FROM received_webhooks WHERE webhook_id = ${id}`);
    expect(rows).toHaveLength(1);
  });

  it('accepts a business-chosen secret without the whsec_ prefix as its UTF-8 bytes', async () => {
    const other = await createTestBusiness('Raw secret');
    const raw = 'my-own-secret-0123456789';
    const r2 = await startReceiver();
    try {
      await registerUrl(other, 'test', `${r2.url}/x`, raw);
      const id = await emit(other, 'test', variants.b2b);
      await r2.waitFor((rs) => rs.length > 0);
      const req = r2.requests[0];
      expect(req.headers['webhook-id']).toBe(id);
      expect(req.headers['service-signature']).toBe(hmacHex(raw, raw));
      expect(() => new Webhook(raw, { format: 'raw' }).verify(req.body, req.headers as Record<string, string>)).not.toThrow();
    } finally {
      await r2.close();
    }
  });

  it('signs with both secrets during a rotation overlap', async () => {
    const rotated = await adminClient().post(`/api/admin/businesses/${business.id}/webhook/rotate`, { mode: 'test', overlap_hours: 1 });
    expect(rotated.status).toBe(200);
    const next = rotated.body.data.secret as string;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    const id = await emit(business, 'test', variants.pay_failed);
    await receiver.waitFor((rs) => rs.some((r) => r.headers['webhook-id'] === id));
    const req = receiver.requests.find((r) => r.headers['webhook-id'] === id)!;
    expect(String(req.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => new Webhook(next).verify(req.body, req.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(secret).verify(req.body, req.headers as Record<string, string>)).not.toThrow();
    expect(req.headers['service-signature']).toBe(hmacHex(secret, secret));
    expect(req.headers['service-signature-next']).toBe(hmacHex(next, next));
    expect(req.headers['x-service-signature-next']).toBe(hmacHex(next, req.body));
    // Registering the URL again ends any overlap.
    await registerUrl(business, 'test', `${receiver.url}/hook`, secret);
  });
});

describe('GET /api/v1/events', () => {
  it("lists the business's events newest first with payload and delivery state, filtered by type and undelivered", async () => {
    const business = await createTestBusiness('Events list');
    const idA = await emit(business, 'test', variants.pay_ok);
    const idB = await emit(business, 'test', variants.c2c_full);
    const idC = await emit(business, 'test', variants.pay_cancelled);
    const other = await createTestBusiness('Someone else');
    await emit(other, 'test', variants.pay_ok);
    await emit(business, 'live', { ...variants.b2b, mode: 'live' });

    const all = await business.test.get('/api/v1/events');
    expect(all.status).toBe(200);
    expect(all.body.message).toBe('Events retrieved successfully');
    expect(all.body.data.total).toBe(3);
    expect(all.body.data.items.map((i: { id: string }) => i.id)).toEqual([idC, idB, idA]);
    const item = all.body.data.items[1];
    expect(Object.keys(item)).toEqual(['id', 'type', 'created_at', 'payload', 'delivery']);
    expect(item.type).toBe('payout.success');
    expect(JSON.stringify(item.payload)).toBe(JSON.stringify(variants.c2c_full));
    // No URL registered: nothing was ever sent to the business.
    expect(item.delivery).toEqual({ state: 'none', attempts: 0 });

    const payouts = await business.test.get('/api/v1/events?type=payout.success');
    expect(payouts.body.data.items.map((i: { id: string }) => i.id)).toEqual([idB]);
    expect(payouts.body.data.total).toBe(1);
    const undelivered = await business.test.get('/api/v1/events?undelivered=true&limit=2');
    expect(undelivered.body.data).toMatchObject({ total: 3, page: 1, limit: 2, pages: 2 });
    const page2 = await business.test.get('/api/v1/events?undelivered=true&limit=2&page=2');
    expect(page2.body.data.items.map((i: { id: string }) => i.id)).toEqual([idA]);

    const live = await business.live.get('/api/v1/events');
    expect(live.body.data.total).toBe(1);
    expect(live.body.data.items[0].payload.mode).toBe('live');

    expect((await business.test.get('/api/v1/events?type=payout.nope')).body.error).toHaveProperty('type');
    expect((await business.test.get('/api/v1/events?undelivered=maybe')).status).toBe(400);
    expect((await business.test.get('/api/v1/events?limit=101')).status).toBe(400);
  });

  it('shows an event delivered once the business URL answered', async () => {
    const business = await createTestBusiness('Events delivered');
    const receiver = await startReceiver();
    try {
      await registerUrl(business, 'test', `${receiver.url}/h`);
      const id = await emit(business, 'test', variants.bank_full);
      await receiver.waitFor((rs) => rs.length === 1);
      await expect.poll(async () => (await business.test.get('/api/v1/events')).body.data.items[0].delivery.state).toBe('delivered');
      const delivered = await business.test.get('/api/v1/events?undelivered=true');
      expect(delivered.body.data.items.map((i: { id: string }) => i.id)).not.toContain(id);
    } finally {
      await receiver.close();
    }
  });
});

describe('failures, log and replay', () => {
  it('a 410 disables the endpoint; a redirect is not followed; both are in the delivery log; replay sends again', async () => {
    const business = await createTestBusiness('Gone');
    let answer = 410;
    const receiver = await startReceiver((r) =>
      r.path === '/moved' ? { status: 302, headers: { location: `http://127.0.0.1:1/elsewhere` } } : { status: answer, body: 'gone for good' },
    );
    try {
      await registerUrl(business, 'test', `${receiver.url}/hook`);
      const id = await emit(business, 'test', variants.pay_ok);
      await receiver.waitFor((rs) => rs.length === 1);
      await expect
        .poll(async () => {
          const { rows } = await testDb().execute(
            sql`SELECT disabled_at FROM webhook_endpoints WHERE business_id = ${business.id} AND mode = 'test' AND kind = 'business'`,
          );
          return rows[0].disabled_at !== null;
        })
        .toBe(true);
      const log = await adminClient().get(`/api/admin/businesses/${business.id}/webhook/deliveries?mode=test&event_id=${id}`);
      expect(log.status).toBe(200);
      const own = log.body.data.items.find((i: { endpoint: string }) => i.endpoint === 'business');
      expect(own.state).toBe('failed');
      expect(own.attempts).toHaveLength(1);
      expect(own.attempts[0]).toMatchObject({ status_code: 410, error: 'HTTP 410', response_excerpt: 'gone for good' });
      expect(own.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);

      // An event while the endpoint is disabled is not sent, but it is recorded as failed.
      const whileGone = await emit(business, 'test', variants.pay_failed);
      const state = await testDb().execute<{ state: string; attempts: number }>(sql`
        SELECT d.state, d.attempts FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id
        WHERE e.event_id = ${whileGone} AND w.kind = 'business'`);
      expect(state.rows).toEqual([{ state: 'failed', attempts: 0 }]);

      // Registering again re-enables; a replay of that event now reaches a receiver that answers 200.
      answer = 200;
      await registerUrl(business, 'test', `${receiver.url}/hook`);
      const replay = await adminClient().post(`/api/admin/businesses/${business.id}/webhook/replay`, { mode: 'test', event_id: id });
      expect(replay.status).toBe(200);
      expect(replay.body.data.deliveries).toBe(2);
      await receiver.waitFor((rs) => rs.filter((r) => r.headers['webhook-id'] === id).length === 2);
      const again = receiver.requests.filter((r) => r.headers['webhook-id'] === id);
      expect(again[1].body.equals(again[0].body)).toBe(true);
      // So does the replay of the failed events of the period: the one sent while the URL was gone arrives.
      const period = await adminClient().post(`/api/admin/businesses/${business.id}/webhook/replay`, {
        mode: 'test',
        from: '2020-01-01T00:00:00Z',
        to: '2100-01-01T00:00:00Z',
      });
      expect(period.body.data.deliveries).toBeGreaterThanOrEqual(1);
      await receiver.waitFor((rs) => rs.some((r) => r.headers['webhook-id'] === whileGone));

      await registerUrl(business, 'test', `${receiver.url}/moved`);
      const moved = await emit(business, 'test', variants.pay_failed);
      await receiver.waitFor((rs) => rs.some((r) => r.path === '/moved'));
      await expect
        .poll(async () => {
          const l = await adminClient().get(`/api/admin/businesses/${business.id}/webhook/deliveries?mode=test&event_id=${moved}`);
          return l.body.data.items.find((i: { endpoint: string }) => i.endpoint === 'business').attempts[0]?.error;
        })
        .toMatch(/redirect .* not followed/);
      const { rows } = await testDb().execute(
        sql`SELECT d.state FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE e.event_id = ${moved} AND w.kind = 'business'`,
      );
      expect(rows[0].state).toBe('pending');
    } finally {
      await receiver.close();
    }
  });

  it('replays all failed events of a period, and only those', async () => {
    const business = await createTestBusiness('Replay period');
    const receiver = await startReceiver();
    try {
      await registerUrl(business, 'test', `${receiver.url}/h`);
      const failed = await emit(business, 'test', variants.pay_ok);
      const delivered = await emit(business, 'test', variants.pay_failed);
      await testDb().execute(
        sql`UPDATE webhook_deliveries SET state = 'failed' FROM webhook_events e WHERE e.id = webhook_deliveries.event_id AND e.event_id = ${failed}`,
      );
      await receiver.waitFor((rs) => rs.some((r) => r.headers['webhook-id'] === delivered));
      const before = receiver.requests.length;
      const from = new Date(Date.now() - 60_000).toISOString();
      const to = new Date(Date.now() + 60_000).toISOString();
      const res = await adminClient().post(`/api/admin/businesses/${business.id}/webhook/replay`, { mode: 'test', from, to });
      expect(res.status).toBe(200);
      expect(res.body.data.deliveries).toBe(2); // the business URL and the dashboard endpoint of the failed one
      await receiver.waitFor((rs) => rs.slice(before).some((r) => r.headers['webhook-id'] === failed));
      expect(receiver.requests.slice(before).some((r) => r.headers['webhook-id'] === delivered)).toBe(false);
      const bad = await adminClient().post(`/api/admin/businesses/${business.id}/webhook/replay`, { mode: 'test', from: to, to: from });
      expect(bad.status).toBe(400);
    } finally {
      await receiver.close();
    }
  });
});

describe('the receiving route handler', () => {
  it('answers 200 to a genuine delivery once recorded, and 400 or 401 to forged, stale or malformed ones', async () => {
    const business = await createTestBusiness('Receiver');
    const { rows } = await testDb().execute<{ url: string; secret: string }>(
      sql`SELECT url, secret FROM webhook_endpoints WHERE business_id = ${business.id} AND mode = 'test' AND kind = 'dashboard'`,
    );
    const { url, secret } = rows[0];
    const { signatureHeaders } = await import('../../lib/webhooks/signing');
    const body = Buffer.from(JSON.stringify(variants.pay_ok));
    const ts = Math.floor(Date.now() / 1000);
    const id = `msg_http_${Date.now()}`;
    const good = signatureHeaders({ secret, webhookId: id, timestamp: ts, body });
    const post = (headers: Record<string, string>, b: Buffer | string = body, u = url) =>
      fetch(u, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof b === 'string' ? b : new Uint8Array(b) });
    expect((await post({ ...good, 'webhook-signature': good['webhook-signature'].replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) })).status).toBe(401);
    expect((await post(good, Buffer.from(JSON.stringify({ ...variants.pay_ok, amount: 9_999_999 })))).status).toBe(401);
    const stale = signatureHeaders({ secret, webhookId: id, timestamp: ts - 301, body });
    expect((await post(stale)).status).toBe(401);
    expect((await post({ ...good, 'service-signature': '0'.repeat(64) })).status).toBe(401);
    expect((await post({ ...good, 'service-signature': 'short' })).status).toBe(401);
    const { 'webhook-id': _omit, ...noId } = good;
    expect((await post(noId)).status).toBe(400);
    expect((await post({ ...good, 'webhook-timestamp': 'yesterday' })).status).toBe(400);
    expect((await post(good, body, url.replace(/we_\w+$/, 'we_unknown'))).status).toBe(401);
    const { rows: none } = await testDb().execute(sql`SELECT 1 FROM received_webhooks WHERE webhook_id = ${id}`);
    expect(none).toHaveLength(0);

    const ok = await post(good);
    expect(ok.status).toBe(200);
    expect((await ok.json()).data).toEqual({ id });
    const dup = await post(good);
    expect(dup.status).toBe(200);
    expect((await dup.json()).message).toBe('Webhook already received');
  });
});
