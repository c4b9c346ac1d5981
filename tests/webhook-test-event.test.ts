import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { auditSentence } from '../components/audit/audit-sentence';
import { runActionAs } from '../lib/actions/define-action';
import { sendTestWebhook, setWebhookUrl } from '../lib/actions/developer-actions';
import type { DashboardSession } from '../lib/auth/session-types';
import { listAuditLog } from '../lib/dashboard/list-audit-log';
import { listDeliveryLog } from '../lib/dashboard/list-delivery-log';
import { findEndpoint } from '../lib/webhooks/endpoints';
import type { TestEventResult } from '../lib/webhooks/send-test-event';
import { serviceSignature, standardSignature } from '../lib/webhooks/signing';
import { startReceiver } from './api/webhooks-receiver';
import { adminClient, createCard, createTestBusiness, testDb, waitFor, type TestBusiness } from './helpers';
import { fundCard } from './ledger-helpers';

process.env.DATABASE_URL = inject('databaseUrl');

let biz: TestBusiness;
let owner: DashboardSession;

beforeAll(async () => {
  biz = await createTestBusiness('Test events');
  const email = `owner-${randomUUID()}@example.com`;
  const made = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'dashboard-pass-123', role: 'owner' });
  owner = {
    userId: made.body.data.id,
    email,
    businessId: biz.id,
    role: 'owner',
    mode: 'test',
    timeZone: 'Africa/Addis_Ababa',
    country: 'ET',
    actor: { type: 'user', id: String(made.body.data.id) },
  };
});

describe('send test event', () => {
  it('without a URL it says to set one, on the url field', async () => {
    const r = await runActionAs(sendTestWebhook, owner, {});
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.fieldErrors?.url).toMatch(/Set a test webhook URL first/);
  });

  it('sends one signed payout.success marked as a test, answers its outcome, keeps it out of the events API, and audits it', async () => {
    const receiver = await startReceiver();
    try {
      const set = await runActionAs(setWebhookUrl, owner, { url: `${receiver.url}/hooks` });
      if (!set.ok) throw new Error(set.message);
      const secret = (await findEndpoint(testDb(), biz.id, 'test', 'business'))!.secret;
      const sent = await runActionAs(sendTestWebhook, owner, {});
      if (!sent.ok) throw new Error(sent.message);
      // A loopback address is not public: the event is queued, and only whether it worked reaches the audit log.
      expect(sent.data).toMatchObject({ queued: true, statusCode: null, durationMs: null });

      await receiver.waitFor((rs) => rs.length === 1);
      const req = receiver.requests[0];
      expect(req.headers['webhook-test']).toBe('true');
      expect(req.headers['webhook-id']).toBe(sent.data.webhookId);
      expect(req.headers['service-signature']).toBe(serviceSignature(secret));
      expect(req.headers['webhook-signature']).toBe(standardSignature(secret, sent.data.webhookId, String(req.headers['webhook-timestamp']), req.body));
      const body = JSON.parse(req.body.toString('utf8'));
      expect(Object.keys(body).slice(0, 6)).toEqual(['event', 'status', 'mode', 'payout_type', 'currency', 'amount']);
      expect(body).toMatchObject({ event: 'payout.success', status: 'success', mode: 'test', payout_type: 'bank' });
      expect(body.provider_reference).toMatch(/^test_/);
      expect(req.body.toString('utf8')).toBe(sent.data.body);

      const events = await biz.test.get('/api/v1/events');
      expect(JSON.stringify(events.body)).not.toContain(sent.data.webhookId);
      const log = await waitFor(async () => {
        const found = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 5, action: 'webhook.test_sent' });
        return found.items.length ? found : undefined;
      });
      expect(auditSentence(log.items[0], 'Africa/Addis_Ababa')).toBe(`Sent a test event to ${receiver.url}/hooks; it was delivered.`);
    } finally {
      await receiver.close();
    }
  });
});

describe('a test event to an address not public', () => {
  it('is answered at once, the same for a closed port, a slow server and a silent one, and audited when known with the time it was sent', async () => {
    const other = await createTestBusiness('Test events, timing');
    const made = await adminClient().post(`/api/admin/businesses/${other.id}/users`, {
      email: `owner-${randomUUID()}@example.com`,
      password: 'dashboard-pass-123',
      role: 'owner',
    });
    const session: DashboardSession = { ...owner, userId: made.body.data.id, businessId: other.id, actor: { type: 'user', id: String(made.body.data.id) } };
    let release!: () => void;
    const released = new Promise<{ status: number }>((resolve) => {
      release = () => resolve({ status: 200 });
    });
    const silent = await startReceiver(() => released);
    const closed = await startReceiver();
    const closedUrl = closed.url;
    await closed.close();
    try {
      const answers: TestEventResult[] = [];
      for (const url of [`${closedUrl}/closed`, `${silent.url}/silent`]) {
        expect((await runActionAs(setWebhookUrl, session, { url })).ok).toBe(true);
        await testDb().execute(sql`DELETE FROM rate_limit_buckets WHERE key LIKE ${`test-event:%:${other.id}:test`}`);
        const sent = await waitFor(async () => {
          const r = await runActionAs(sendTestWebhook, session, {});
          return r.ok || r.code !== 'rate_limited' ? r : undefined;
        });
        if (!sent.ok) throw new Error(sent.message);
        answers.push(sent.data);
      }
      // The silent server holds the request until released: the answer came before any reply.
      await silent.waitFor((rs) => rs.length === 1);
      const shape = ({ queued, ok, statusCode, durationMs, error, responseExcerpt }: TestEventResult) => ({
        queued,
        ok,
        statusCode,
        durationMs,
        error,
        responseExcerpt,
      });
      expect(shape(answers[0])).toEqual({ queued: true, ok: true, statusCode: null, durationMs: null, error: null, responseExcerpt: null });
      expect(shape(answers[1])).toEqual(shape(answers[0]));
      const sentAt = new Date();
      release();
      const log = await waitFor(async () => {
        const found = await listAuditLog(testDb(), { businessId: other.id, mode: 'test', limit: 5, action: 'webhook.test_sent' });
        return found.items.length === 2 ? found : undefined;
      });
      const sentences = log.items.map((i) => auditSentence(i, 'Africa/Addis_Ababa')).sort();
      expect(sentences).toEqual(
        [`Sent a test event to ${closedUrl}/closed; it was not delivered.`, `Sent a test event to ${silent.url}/silent; it was delivered.`].sort(),
      );
      for (const item of log.items) expect(new Date(item.createdAt).getTime()).toBeLessThanOrEqual(sentAt.getTime());
    } finally {
      release();
      await silent.close();
    }
  });
});

describe('test event limit', () => {
  it('sends one per business and mode every 5 seconds and never two at once; other businesses are not held back', async () => {
    const receiver = await startReceiver();
    try {
      const other = await createTestBusiness('Test events, other');
      const made = await adminClient().post(`/api/admin/businesses/${other.id}/users`, {
        email: `owner-${randomUUID()}@example.com`,
        password: 'dashboard-pass-123',
        role: 'owner',
      });
      const otherOwner: DashboardSession = {
        ...owner,
        userId: made.body.data.id,
        businessId: other.id,
        actor: { type: 'user', id: String(made.body.data.id) },
      };
      for (const s of [owner, otherOwner]) expect((await runActionAs(setWebhookUrl, s, { url: `${receiver.url}/limit` })).ok).toBe(true);
      // The owner's shared bucket, spent by the test above's event, is emptied of that event instead of waiting out
      // TEST_EVENT_INTERVAL_MS: the window below is then decided by PostgreSQL's clock, not by how fast a loaded machine runs.
      await testDb().execute(sql`DELETE FROM rate_limit_buckets WHERE key LIKE ${`test-event:%:${owner.businessId}:test`}`);
      const before = receiver.requests.length;
      const [x, y] = await Promise.all([runActionAs(sendTestWebhook, owner, {}), runActionAs(sendTestWebhook, owner, {})]);
      expect([x.ok, y.ok].sort()).toEqual([false, true]);
      const refused = x.ok ? y : x;
      expect(refused).toMatchObject({ ok: false, code: 'rate_limited', message: expect.stringContaining('wait a few seconds') });
      expect(await runActionAs(sendTestWebhook, owner, {})).toMatchObject({ ok: false, code: 'rate_limited' });
      expect((await runActionAs(sendTestWebhook, otherOwner, {})).ok).toBe(true);
      await receiver.waitFor((rs) => rs.length - before === 2);
    } finally {
      await receiver.close();
    }
  });
});

describe('the delivery log', () => {
  it('shows each delivery’s exact payload, its headers with every signature hidden, and links to its payout', async () => {
    const receiver = await startReceiver();
    try {
      const set = await runActionAs(setWebhookUrl, owner, { url: `${receiver.url}/log` });
      if (!set.ok) throw new Error(set.message);
      const source = await createCard(biz.test);
      const destination = await createCard(biz.test);
      await fundCard(source.card_number, 5_000);
      const payout = await biz.test.post('/api/v1/card/payouts', {
        card_number: source.card_number,
        destination_card_number: destination.card_number,
        amount: 1_234,
      });
      expect(payout.status).toBe(200);
      const reference = payout.body.data.initiator_reference as string;
      await receiver.waitFor((rs) => rs.some((r) => r.body.toString().includes(reference)));
      const received = receiver.requests.find((r) => r.body.toString().includes(reference))!;

      const entry = await waitFor(async () => {
        const { items } = await listDeliveryLog(testDb(), { businessId: biz.id, mode: 'test', page: 1, limit: 20 });
        const found = items.find((i) => i.subject.reference === reference);
        return found?.attempts.length ? found : undefined;
      });
      expect(entry.payload).toBe(received.body.toString('utf8'));
      expect(entry.subject).toEqual({ label: 'Payout', reference, href: `/payouts/${reference}` });
      const headers = Object.fromEntries(entry.headers.map((h) => [h.name, h.value]));
      expect(headers['webhook-id']).toBe(received.headers['webhook-id']);
      expect(Object.keys(headers).sort()).toEqual(
        ['content-type', 'user-agent', 'service-signature', 'x-service-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature'].sort(),
      );
      for (const name of ['service-signature', 'x-service-signature', 'webhook-signature']) {
        expect(headers[name]).toMatch(/hidden/);
        expect(JSON.stringify(entry)).not.toContain(String(received.headers[name]));
      }
      expect(JSON.stringify(entry)).not.toContain((await findEndpoint(testDb(), biz.id, 'test', 'business'))!.secret);
    } finally {
      await receiver.close();
    }
  });

  it('links a hold’s events to its card’s page, never to a payout page that does not exist', async () => {
    const receiver = await startReceiver();
    try {
      const set = await runActionAs(setWebhookUrl, owner, { url: `${receiver.url}/holds` });
      if (!set.ok) throw new Error(set.message);
      const card = await createCard(biz.test);
      await fundCard(card.card_number, 3_000);
      const placed = await biz.test.post(`/api/v1/card/${card.card_number}/holds`, { amount: 700 });
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      const reference = placed.body.data.hold_reference as string;
      const entry = await waitFor(async () => {
        const { items } = await listDeliveryLog(testDb(), { businessId: biz.id, mode: 'test', page: 1, limit: 20 });
        return items.find((i) => i.subject.reference === reference);
      });
      expect(entry.type).toBe('hold.created');
      expect(entry.subject).toEqual({ label: 'Hold', reference, href: `/cards/${card.card_number}` });
    } finally {
      await receiver.close();
    }
  });
});
