import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDeliveryLog, type DeliveryLogEntry } from '../lib/dashboard/list-delivery-log';
import { deliverWebhook } from '../lib/webhooks/deliver-webhook';
import { attemptRow, NON_PUBLIC_FAILURE } from '../lib/webhooks/record-attempts';
import { startReceiver } from './api/webhooks-receiver';
import { adminClient, createTestBusiness, testDb, waitFor, type TestBusiness } from './helpers';
import { emitPaymentEvent } from './webhook-events';

/**
 * Test mode may send to loopback, which is the server's own network: the
 * business learns only whether such a delivery worked, never what answered
 * (CONTRACT.md section 6). The back office sees it all.
 */

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const SECRET_BODY = 'internal-service-secret-7f3a9c';
const SECRET_HEADER = 'x-internal-token';

const emit = (business: TestBusiness) => emitPaymentEvent(testDb(), business.id, `${Math.random()}`);

async function withUrl(name: string, url: string): Promise<TestBusiness> {
  const business = await createTestBusiness(name);
  const res = await adminClient().put(`/api/admin/businesses/${business.id}/webhook`, { mode: 'test', url });
  expect(res.status).toBe(200);
  return business;
}

/** The dashboard's delivery log entry of one event, once its first attempt is recorded. */
async function loggedDelivery(business: TestBusiness, eventId: string): Promise<DeliveryLogEntry> {
  return waitFor(async () => {
    const log = await listDeliveryLog(testDb(), { businessId: business.id, mode: 'test', page: 1, limit: 20 });
    const entry = log.items.find((i) => i.eventId === eventId);
    return entry && entry.attempts.length > 0 ? entry : undefined;
  }, 20_000);
}

async function backOfficeAttempts(business: TestBusiness, eventId: string) {
  const res = await adminClient().get(`/api/admin/businesses/${business.id}/webhook/deliveries?mode=test&event_id=${eventId}`);
  expect(res.status).toBe(200);
  return res.body.data.items.find((i: { endpoint: string }) => i.endpoint === 'business').attempts as Record<string, unknown>[];
}

describe('deliveries to loopback, as the business sees them', () => {
  let internal: Receiver;
  beforeAll(async () => {
    // An internal service that answers with something worth stealing, and asks to be left alone for a day.
    internal = await startReceiver(() => ({ status: 503, headers: { [SECRET_HEADER]: 'tok-51f0', 'retry-after': '86400' }, body: SECRET_BODY }));
  });
  afterAll(() => internal.close());

  it('a loopback port that answers: neither the dashboard nor the API shows its status, body, headers or timing', async () => {
    const business = await withUrl('Loopback reader', `http://127.0.0.1:${internal.port}/admin`);
    const eventId = await emit(business);
    const entry = await loggedDelivery(business, eventId);
    expect(internal.requests.some((r) => r.headers['webhook-id'] === eventId)).toBe(true);

    expect(entry.state).toBe('pending');
    expect(entry.attempts[0]).toMatchObject({ statusCode: null, durationMs: null, error: NON_PUBLIC_FAILURE, responseExcerpt: null });
    expect(JSON.stringify(entry)).not.toContain(SECRET_BODY);
    expect(JSON.stringify(entry)).not.toContain('tok-51f0');
    // Retry-After is a reply header too: the next attempt keeps the schedule (5 s), not the day it asked for.
    expect(Date.parse(entry.nextAttemptAt!) - Date.now()).toBeLessThan(60_000);

    const events = await business.test.get('/api/v1/events');
    expect(events.status).toBe(200);
    const item = events.body.data.items.find((i: { id: string }) => i.id === eventId);
    expect(item.delivery).toMatchObject({ state: 'pending' });
    expect(Object.keys(item.delivery).sort()).toEqual(['attempts', 'last_attempt_at', 'state']);
    expect(JSON.stringify(events.body)).not.toContain(SECRET_BODY);

    // The back office sees what really happened.
    const attempts = await backOfficeAttempts(business, eventId);
    expect(attempts[0]).toMatchObject({ status_code: 503, error: 'HTTP 503', response_excerpt: SECRET_BODY });
    expect(attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('a closed loopback port: no network error, no port, only that it failed', async () => {
    const business = await withUrl('Port scanner', 'http://127.0.0.1:1/x');
    const eventId = await emit(business);
    const entry = await loggedDelivery(business, eventId);

    expect(entry.attempts[0]).toEqual({
      attemptedAt: expect.any(String),
      statusCode: null,
      durationMs: null,
      error: NON_PUBLIC_FAILURE,
      responseExcerpt: null,
    });
    // The URL is the business's own; the attempts must not echo it back as a network error.
    expect(JSON.stringify(entry.attempts)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);

    const events = await business.test.get('/api/v1/events');
    expect(JSON.stringify(events.body)).not.toMatch(/ECONNREFUSED|refused/i);

    const attempts = await backOfficeAttempts(business, eventId);
    expect(attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('an open port and a closed one look the same to the business, apart from a 2xx', async () => {
    const open = await withUrl('Open port', `http://127.0.0.1:${internal.port}/x`);
    const closed = await withUrl('Closed port', 'http://127.0.0.1:1/x');
    const [a, b] = await Promise.all([emit(open), emit(closed)]);
    const strip = ({ attemptedAt: _, ...rest }: DeliveryLogEntry['attempts'][number]) => rest;
    expect(strip((await loggedDelivery(open, a)).attempts[0])).toEqual(strip((await loggedDelivery(closed, b)).attempts[0]));
  });

  it('a loopback receiver that answers 2xx shows as delivered, still without its reply', async () => {
    const ok = await startReceiver(() => ({ status: 200, body: SECRET_BODY }));
    try {
      const business = await withUrl('Local developer', `http://localhost:${ok.port}/hook`);
      const eventId = await emit(business);
      await ok.waitFor((rs) => rs.some((r) => r.headers['webhook-id'] === eventId));
      const entry = await waitFor(async () => {
        const e = await loggedDelivery(business, eventId);
        return e.state === 'delivered' ? e : undefined;
      });
      expect(entry.attempts[0]).toMatchObject({ statusCode: null, durationMs: null, error: null, responseExcerpt: null });
      expect((await backOfficeAttempts(business, eventId))[0]).toMatchObject({ status_code: 200, error: null, response_excerpt: SECRET_BODY });
    } finally {
      await ok.close();
    }
  });

  it('a slow loopback receiver: no time the business sees depends on when it answered; the back office sees the real ones', async () => {
    // Each answers 400 ms after it is asked; the fast one at once.
    const slowOk = await startReceiver(async () => {
      await new Promise((r) => setTimeout(r, 400));
      return { status: 200 };
    });
    const slowFailing = await startReceiver(async () => {
      await new Promise((r) => setTimeout(r, 400));
      return { status: 500 };
    });
    try {
      const [delivered, failing, fast] = await Promise.all([
        withUrl('Slow 2xx', `http://127.0.0.1:${slowOk.port}/hook`),
        withUrl('Slow 500', `http://127.0.0.1:${slowFailing.port}/hook`),
        withUrl('Fast 503', `http://127.0.0.1:${internal.port}/hook`),
      ]);
      const [d, f, q] = await Promise.all([emit(delivered), emit(failing), emit(fast)]);

      // GET /events: delivered when the attempt started, the only time it shows.
      const event = await waitFor(async () => {
        const events = await delivered.test.get('/api/v1/events');
        const item = events.body.data.items.find((i: { id: string }) => i.id === d);
        return item?.delivery.state === 'delivered' ? item : undefined;
      });
      console.log(
        `a loopback receiver answering 2xx after 400 ms: GET /events shows delivered_at − last_attempt_at = ${Date.parse(event.delivery.delivered_at) - Date.parse(event.delivery.last_attempt_at)} ms`,
      );
      expect(event.delivery.delivered_at).toBe(event.delivery.last_attempt_at);
      const deliveredEntry = await waitFor(async () => {
        const e = await loggedDelivery(delivered, d);
        return e.state === 'delivered' ? e : undefined;
      });
      expect(deliveredEntry.attempts[0].attemptedAt).toBe(event.delivery.last_attempt_at);

      // The delivery log: an attempt is stamped when it started, and the next one is due the same time after it, slow or fast.
      const [slow, quick] = await Promise.all([loggedDelivery(failing, f), loggedDelivery(fast, q)]);
      const gap = (e: DeliveryLogEntry) => Date.parse(e.nextAttemptAt!) - Date.parse(e.attempts[0].attemptedAt);
      console.log(`next attempt − attempt time in the delivery log: ${gap(slow)} ms after a 400 ms 500, ${gap(quick)} ms after an immediate 503`);
      // Within a millisecond: the two stamps reach JavaScript through two parsers that cut microseconds differently; a slow receiver's 400 ms would show.
      expect(Math.abs(gap(slow) - gap(quick))).toBeLessThanOrEqual(1);
      const failingEvents = await failing.test.get('/api/v1/events');
      const failingItem = failingEvents.body.data.items.find((i: { id: string }) => i.id === f);
      expect(slow.attempts[0].attemptedAt).toBe(failingItem.delivery.last_attempt_at);

      // The back office: when each attempt really ended.
      const real = await backOfficeAttempts(failing, f);
      expect(Date.parse(real[0].attempted_at as string) - Date.parse(slow.attempts[0].attemptedAt)).toBeGreaterThanOrEqual(400);
      expect(real[0].duration_ms).toBeGreaterThanOrEqual(400);
      const res = await adminClient().get(`/api/admin/businesses/${delivered.id}/webhook/deliveries?mode=test&event_id=${d}`);
      const backOffice = res.body.data.items.find((i: { endpoint: string }) => i.endpoint === 'business');
      expect(Date.parse(backOffice.delivered_at) - Date.parse(event.delivery.last_attempt_at)).toBeGreaterThanOrEqual(400);
    } finally {
      await Promise.all([slowOk.close(), slowFailing.close()]);
    }
  });
});

describe('attemptRow', () => {
  it("keeps a public address's outcome in the columns, and a non-public one's only in private_detail", async () => {
    const base = { ok: false, statusCode: 500, durationMs: 12, error: 'HTTP 500', responseExcerpt: 'boom', retryAfterMs: null };
    expect(attemptRow({ ...base, nonPublic: false })).toEqual({
      status_code: 500,
      duration_ms: 12,
      error: 'HTTP 500',
      response_excerpt: 'boom',
      private_detail: null,
    });
    expect(attemptRow({ ...base, nonPublic: true })).toEqual({
      status_code: null,
      duration_ms: null,
      error: NON_PUBLIC_FAILURE,
      response_excerpt: null,
      private_detail: { status_code: 500, duration_ms: 12, error: 'HTTP 500', response_excerpt: 'boom' },
    });
    // A refusal before any connection is our own words: the business may read them.
    const refused = await deliverWebhook({ url: 'http://10.0.0.1/h', mode: 'test', guard: true, headers: {}, body: Buffer.from('{}') });
    expect(refused).toMatchObject({ nonPublic: false, error: expect.stringMatching(/^refused/) });
    expect(attemptRow(refused).error).toBe(refused.error);
    // Our own dashboard endpoint is never shown to a business, so its attempts are stored as they are.
    const unguarded = await deliverWebhook({ url: 'http://127.0.0.1:1/x', mode: 'test', guard: false, headers: {}, body: Buffer.from('{}'), timeoutMs: 2000 });
    expect(unguarded).toMatchObject({ nonPublic: false, statusCode: null });
  });
});
