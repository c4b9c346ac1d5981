import http from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createBusiness } from '../lib/admin/businesses';
import { createDb } from '../lib/db/client';
import { attemptDashboardBatch, sendingGroups, startDeliveryWorker } from '../lib/webhooks/delivery-worker';
import type { ClaimedDelivery } from '../lib/webhooks/claim-deliveries';
import { enqueueEvent } from '../lib/webhooks/outbox';
import { receiveWebhookRequest } from '../lib/api/receive-webhook-request';
import { signatureHeaders } from '../lib/webhooks/signing';
import { BATCH_HEADER, MAX_BATCH_ITEM_BYTES, MAX_BATCH_ITEMS } from '../lib/webhooks/webhook-batch';
import { createTestBusiness, testDb } from './helpers';
import { createScratchDatabase } from './test-server';
import { emitPaymentEvent } from './webhook-events';
import { startReceiver } from './api/webhooks-receiver';

/** The receiving route's handler behind a plain Node.js server: what Next.js hands it, without the rest of the app. */
function routeServer(): Promise<{ url: (publicId: string) => string; close(): Promise<void>; requests: () => number }> {
  let requests = 0;
  const server = http.createServer(async (req, res) => {
    requests++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: 'POST',
      headers: req.headers as Record<string, string>,
      body: Buffer.concat(chunks),
    });
    const answer = await receiveWebhookRequest(request, Promise.resolve({ endpoint: req.url!.split('/').pop()! }));
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: (publicId) => `http://127.0.0.1:${port}/api/webhooks/${publicId}`,
        close: () => new Promise((r) => server.close(() => r())),
        requests: () => requests,
      });
    }),
  );
}

describe("batched delivery to the dashboard's own endpoint", () => {
  let route: Awaited<ReturnType<typeof routeServer>>;
  beforeAll(async () => {
    // The handler reads the app's database handle, made from DATABASE_URL: this run's database.
    process.env.DATABASE_URL = inject('databaseUrl');
    route = await routeServer();
  });
  afterAll(() => route.close());

  it('sends several deliveries in one request; a wrongly signed one refuses the batch, which is retried later; the genuine ones are then delivered once', async () => {
    const db = testDb();
    const business = await createTestBusiness('Batch');
    const { rows: endpoints } = await db.execute<{ id: number; public_id: string; secret: string }>(
      sql`SELECT id, public_id, secret FROM webhook_endpoints WHERE business_id = ${business.id} AND mode = 'test' AND kind = 'dashboard'`,
    );
    const endpoint = endpoints[0];
    const claimed: ClaimedDelivery[] = [];
    for (let n = 0; n < 3; n++) {
      const payload = { event: 'payout.success', initiator_reference: `c2c_batch_${n}`, amount: 100 + n };
      // Written as leased (attempt 1, due in an hour) in the same transaction, so the test server's own worker never takes them.
      const delivery = await db.transaction(async (tx) => {
        const webhookId = await enqueueEvent(tx, {
          businessId: business.id,
          mode: 'test',
          type: 'payout.success',
          payload,
          subjectReference: `c2c_batch_${n}`,
        });
        const { rows } = await tx.execute<{ id: number; body: string }>(sql`
          UPDATE webhook_deliveries d SET attempts = 1, next_attempt_at = now() + interval '1 hour'
          FROM webhook_events e WHERE e.id = d.event_id AND e.event_id = ${webhookId} AND d.endpoint_id = ${endpoint.id}
          RETURNING d.id, e.body`);
        return { webhookId, ...rows[0] };
      });
      claimed.push({
        id: Number(delivery.id),
        attempts: 1,
        endpointId: endpoint.id,
        webhookId: delivery.webhookId,
        body: delivery.body,
        mode: 'test',
        kind: 'dashboard',
        url: route.url(endpoint.public_id),
        // The third is signed with a secret that is not the endpoint's: the receiver refuses the whole batch at it.
        secret: n === 2 ? `whsec_${Buffer.alloc(32, 7).toString('base64')}` : endpoint.secret,
        previousSecret: null,
        disabled: false,
      });
    }
    expect(sendingGroups(claimed)).toEqual([claimed]);

    const before = route.requests();
    await attemptDashboardBatch(db, claimed, { schedule: [60_000], timeoutMs: 5_000 });
    expect(route.requests() - before).toBe(1);

    const { rows } = await db.execute<{ id: number; state: string; delivered: boolean; due_later: boolean; statuses: number[] }>(sql`
      SELECT d.id, d.state, d.delivered_at IS NOT NULL AS delivered, d.next_attempt_at > now() + interval '50 seconds' AS due_later,
             array_agg(a.status_code ORDER BY a.id) AS statuses
      FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
      WHERE d.id IN (${claimed[0].id}, ${claimed[1].id}, ${claimed[2].id}) GROUP BY d.id ORDER BY d.id`);
    expect(rows.map((r) => [r.state, r.delivered, r.statuses])).toEqual([
      ['pending', false, [401]],
      ['pending', false, [401]],
      ['pending', false, [401]],
    ]);
    expect(rows.every((r) => r.due_later)).toBe(true);
    const { rows: received } = await db.execute<{ webhook_id: string }>(
      sql`SELECT webhook_id FROM received_webhooks WHERE webhook_id IN (${claimed[0].webhookId}, ${claimed[1].webhookId}, ${claimed[2].webhookId})`,
    );
    expect(received).toEqual([]);

    // The two genuine ones on their retry, twice (a lease that ran out, say): delivered, and kept once.
    const again = claimed.slice(0, 2).map((d) => ({ ...d, attempts: 2 }));
    await db.execute(sql`UPDATE webhook_deliveries SET state = 'pending', attempts = 2 WHERE id IN (${again[0].id}, ${again[1].id})`);
    await attemptDashboardBatch(db, again, { schedule: [60_000], timeoutMs: 5_000 });
    const third = again.map((d) => ({ ...d, attempts: 3 }));
    await db.execute(sql`UPDATE webhook_deliveries SET state = 'pending', attempts = 3 WHERE id IN (${third[0].id}, ${third[1].id})`);
    await attemptDashboardBatch(db, third, { schedule: [60_000], timeoutMs: 5_000 });
    const { rows: after } = await db.execute<{ n: number; states: string[] }>(sql`
      SELECT (SELECT count(*)::int FROM received_webhooks WHERE webhook_id IN (${again[0].webhookId}, ${again[1].webhookId})) AS n,
             (SELECT array_agg(state) FROM webhook_deliveries WHERE id IN (${again[0].id}, ${again[1].id})) AS states`);
    expect(after[0]).toEqual({ n: 2, states: ['delivered', 'delivered'] });
  });

  it('reads one delivery of a forged batch and no more: a sender without the secret cannot make the receiver read 2 MB or check every signature of a full batch', async () => {
    const business = await createTestBusiness('Forged batch');
    const { rows } = await testDb().execute<{ public_id: string }>(
      sql`SELECT public_id FROM webhook_endpoints WHERE business_id = ${business.id} AND mode = 'test' AND kind = 'dashboard'`,
    );
    const foreign = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const timestamp = Math.floor(Date.now() / 1000);
    // As many as make a frame of about 2 MB, the most a batch may be.
    const deliveries = Array.from({ length: Math.min(MAX_BATCH_ITEMS, 34) }, (_, n) => {
      const body = Buffer.from(JSON.stringify({ event: 'payout.success', n, pad: 'x'.repeat(60_000) }));
      return { headers: signatureHeaders({ secret: foreign, webhookId: `msg_forged_${timestamp}_${n}`, timestamp, body }), body: body.toString('utf8') };
    });
    const payload = Buffer.from(JSON.stringify({ deliveries }));
    expect(payload.length).toBeGreaterThan(1.8 * 1024 * 1024);
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (offset >= payload.length) return controller.close();
          controller.enqueue(payload.subarray(offset, offset + 16 * 1024));
          offset += 16 * 1024;
        },
      },
      { highWaterMark: 0 },
    );
    const cpu = process.cpuUsage();
    const started = performance.now();
    const answer = await receiveWebhookRequest(
      new Request(`http://127.0.0.1/api/webhooks/${rows[0].public_id}`, {
        method: 'POST',
        headers: { [BATCH_HEADER]: String(MAX_BATCH_ITEMS) },
        body: stream,
        duplex: 'half',
      } as RequestInit),
      Promise.resolve({ endpoint: rows[0].public_id }),
    );
    const used = process.cpuUsage(cpu);
    console.log(
      `forged batch of ${(payload.length / 1024 / 1024).toFixed(2)} MB: answered ${answer.status} after reading ${(Math.min(offset, payload.length) / 1024).toFixed(0)} KB in ${(performance.now() - started).toFixed(1)} ms, ${((used.user + used.system) / 1000).toFixed(1)} ms CPU`,
    );
    expect(answer.status).toBe(401);
    expect(offset).toBeLessThanOrEqual(MAX_BATCH_ITEM_BYTES + 64 * 1024);
  });

  it('a business endpoint is never batched: one request per delivery', () => {
    const d = (id: number, endpointId: number, kind: string): ClaimedDelivery => ({
      id,
      attempts: 1,
      endpointId,
      webhookId: `msg_${id}`,
      body: '{}',
      mode: 'test',
      kind,
      url: 'http://example.com',
      secret: 's',
      previousSecret: null,
      disabled: false,
    });
    const groups = sendingGroups([d(1, 1, 'business'), d(2, 2, 'dashboard'), d(3, 1, 'business'), d(4, 2, 'dashboard'), d(5, 3, 'dashboard')]);
    expect(groups.map((g) => g.map((x) => x.id))).toEqual([[1], [2, 4], [3], [5]]);
  });
});

describe("the worker's share for a dashboard endpoint", () => {
  it('delivers a backlog of 300 in requests of up to 128, two at once (half the worker), each delivery once', async () => {
    // A database of its own: the shared test server's worker would take these deliveries too.
    const url = await createScratchDatabase(inject('databaseUrl'), 'dashboard_share');
    const { db, pool } = createDb(url, 4);
    let open = 0;
    let mostOpen = 0;
    type Batch = { deliveries: { headers: Record<string, string> }[] };
    const deliveriesOf = (body: Buffer) => (JSON.parse(body.toString('utf8')) as Batch).deliveries;
    // Stands in for our receiving route: holds each batch until another is open too (or 5 s have passed), then answers
    // each delivery 200; so two requests the worker sends at once are seen at once however loaded the machine is.
    const receiver = await startReceiver(async (req) => {
      mostOpen = Math.max(mostOpen, ++open);
      const until = Date.now() + 5_000;
      while (open < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      open--;
      const results = deliveriesOf(req.body).map((d) => ({ id: d.headers['webhook-id'], status: 200, message: 'Webhook received' }));
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'success', data: { results } }) };
    });
    const appUrl = process.env.APP_URL;
    // The worker sends a dashboard endpoint's deliveries to this instance's own address.
    process.env.APP_URL = receiver.url;
    let stop: (() => Promise<void>) | undefined;
    try {
      const business = await createBusiness(db, { name: 'Dashboard share' });
      for (let i = 0; i < 300; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => emitPaymentEvent(db, business.id, i + j)));
      stop = startDeliveryWorker(db, { pollMs: 50 });
      await expect
        .poll(async () => (await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'delivered'`)).rows[0].n, {
          timeout: 30_000,
        })
        .toBe(300);
      const sizes = receiver.requests.map((r) => deliveriesOf(r.body).length);
      expect(Math.max(...sizes)).toBe(MAX_BATCH_ITEMS);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(300);
      expect(mostOpen).toBe(2);
      const { rows } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_attempts`);
      expect(rows[0].n).toBe(300);
    } finally {
      await stop?.();
      if (appUrl === undefined) delete process.env.APP_URL;
      else process.env.APP_URL = appUrl;
      await receiver.close();
      await pool.end();
    }
  }, 60_000);
});
