import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ServiceError } from '../lib/errors';
import { createTestBusiness, testDb } from './helpers';
import { liveUpdatesChannel, subscribeLiveUpdates, type LiveUpdate } from '../lib/webhooks/live-updates';
import { receiveWebhook, receiveWebhookBatch } from '../lib/webhooks/receive-webhook';
import { signatureHeaders } from '../lib/webhooks/signing';

describe('receiveWebhook', () => {
  let endpoint: { public_id: string; secret: string; business_id: number };

  beforeAll(async () => {
    const business = await createTestBusiness('Mutations');
    const { rows } = await testDb().execute<typeof endpoint>(sql`
      SELECT public_id, secret, business_id FROM webhook_endpoints WHERE business_id = ${business.id} AND mode = 'test' AND kind = 'dashboard'`);
    endpoint = rows[0];
  });

  const signed = (id: string, body: Buffer, timestamp = Math.floor(Date.now() / 1000), secret = endpoint.secret) => ({
    id,
    body,
    timestamp: String(timestamp),
    headers: signatureHeaders({ secret, webhookId: id, timestamp, body }),
  });

  const receive = (headers: Record<string, string>, body: Buffer) =>
    receiveWebhook(testDb(), { endpointPublicId: endpoint.public_id, headers: new Headers(headers), body });

  it('rejects 1,000 single-byte mutations of body, id or timestamp, then accepts the original once', async () => {
    const id = `msg_mut_${Date.now()}`;
    const body = Buffer.from(
      JSON.stringify({
        event: 'payout.success',
        status: 'success',
        mode: 'test',
        payout_type: 'card_to_card',
        currency: 'ETB',
        amount: 1500,
        initiator_reference: 'r',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      }),
    );
    const original = signed(id, body);
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const outcomes = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      const target = i % 3;
      let headers = { ...original.headers };
      let b = body;
      if (target === 0) {
        b = Buffer.from(body);
        const at = rand(b.length);
        b[at] ^= 1 + rand(255);
      } else {
        const field = target === 1 ? 'webhook-id' : 'webhook-timestamp';
        const value = Buffer.from(headers[field]);
        const at = rand(value.length);
        // Stay within printable ASCII so the header is one a client could really send.
        let next = value[at];
        while (next === value[at]) next = 0x21 + rand(0x5e);
        value[at] = next;
        headers = { ...headers, [field]: value.toString('latin1') };
      }
      const err = await receive(headers, b).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, `mutation ${i} was accepted`).toBeInstanceOf(ServiceError);
      const status = (err as ServiceError).status;
      expect([400, 401]).toContain(status);
      outcomes.set(status, (outcomes.get(status) ?? 0) + 1);
    }
    expect(outcomes.get(401)).toBeGreaterThan(500);
    const { rows } = await testDb().execute(
      sql`SELECT count(*)::int AS n FROM received_webhooks WHERE endpoint_id = (SELECT id FROM webhook_endpoints WHERE public_id = ${endpoint.public_id})`,
    );
    expect(rows[0].n).toBe(0);
    expect(await receive(original.headers, body)).toEqual({ webhookId: id, duplicate: false });
    expect(await receive(original.headers, body)).toEqual({ webhookId: id, duplicate: true });
  });

  it('refuses a timestamp more than five minutes off either way, even when signed', async () => {
    const body = Buffer.from('{"event":"payment.success"}');
    for (const skew of [-301, 301, -3600]) {
      const m = signed(`msg_skew_${skew}_${Date.now()}`, body, Math.floor(Date.now() / 1000) + skew);
      await expect(receive(m.headers, body)).rejects.toMatchObject({ status: 401 });
    }
    const ok = signed(`msg_skew_ok_${Date.now()}`, body, Math.floor(Date.now() / 1000) - 290);
    await expect(receive(ok.headers, body)).resolves.toMatchObject({ duplicate: false });
  });

  it("refuses another endpoint's secret, and accepts the previous secret only during its overlap", async () => {
    const body = Buffer.from('{"event":"payment.failed"}');
    const foreign = signed(`msg_foreign_${Date.now()}`, body, undefined, `whsec_${Buffer.alloc(32, 1).toString('base64')}`);
    await expect(receive(foreign.headers, body)).rejects.toMatchObject({ status: 401 });
    const old = endpoint.secret;
    const fresh = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    await testDb().execute(
      sql`UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = now() + interval '1 hour', secret = ${fresh} WHERE public_id = ${endpoint.public_id}`,
    );
    try {
      const byOld = signed(`msg_old_${Date.now()}`, body, undefined, old);
      await expect(receive(byOld.headers, body)).resolves.toMatchObject({ duplicate: false });
      await testDb().execute(
        sql`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE public_id = ${endpoint.public_id}`,
      );
      const late = signed(`msg_late_${Date.now()}`, body, undefined, old);
      await expect(receive(late.headers, body)).rejects.toMatchObject({ status: 401 });
    } finally {
      await testDb().execute(
        sql`UPDATE webhook_endpoints SET secret = ${old}, previous_secret = NULL, previous_secret_expires_at = NULL WHERE public_id = ${endpoint.public_id}`,
      );
    }
  });

  it('tells listeners of that business and mode only, across connections, once per webhook-id', async () => {
    const heard: LiveUpdate[] = [];
    const unsubscribe = await subscribeLiveUpdates(endpoint.business_id, 'test', (u) => heard.push(u), inject('databaseUrl'));
    const otherHeard: string[] = [];
    const other = new pg.Client({ connectionString: inject('databaseUrl') });
    await other.connect();
    await other.query(`LISTEN "${liveUpdatesChannel(endpoint.business_id, 'live')}"`);
    other.on('notification', (n) => otherHeard.push(n.payload ?? ''));
    try {
      const body = Buffer.from('{"event":"payout.failed","provider_reference":"bnk_live","meta":{"account_name":"Private"}}');
      const m = signed(`msg_live_${Date.now()}`, body);
      await receive(m.headers, body);
      await receive(m.headers, body);
      await expect.poll(() => heard.length).toBe(1);
      // Only the kind and the reference travel to the browser, never the rest of the payload.
      expect(heard[0]).toEqual({ id: m.id, event: 'payout.failed', kind: 'payout', reference: 'bnk_live' });
      // A later message on the same channel, heard, shows a second notice of the first would have been heard by now:
      // notices arrive in commit order. (A fixed 200 ms wait said nothing on a loaded machine.)
      const marker = signed(`msg_live_marker_${Date.now()}`, Buffer.from('{"event":"payout.success","provider_reference":"bnk_marker"}'));
      await receive(marker.headers, Buffer.from('{"event":"payout.success","provider_reference":"bnk_marker"}'));
      await expect.poll(() => heard.some((u) => u.reference === 'bnk_marker'), { timeout: 30_000 }).toBe(true);
      expect(heard.filter((u) => u.reference === 'bnk_live')).toHaveLength(1);
      expect(otherHeard).toEqual([]);
    } finally {
      await unsubscribe();
      await other.end();
    }
  });

  it('a batch verifies each delivery as if alone: genuine ones kept once (one notice each); the first forged or stale one refuses the whole batch', async () => {
    const heard: LiveUpdate[] = [];
    const unsubscribe = await subscribeLiveUpdates(endpoint.business_id, 'test', (u) => heard.push(u), inject('databaseUrl'));
    try {
      const stamp = Date.now();
      const body = (n: number) => Buffer.from(JSON.stringify({ event: 'payout.success', initiator_reference: `c2c_batch_${stamp}_${n}` }));
      const genuine = signed(`msg_batch_${stamp}_1`, body(1));
      const again = signed(`msg_batch_${stamp}_2`, body(2));
      const tampered = signed(`msg_batch_${stamp}_3`, body(3));
      const stale = signed(`msg_batch_${stamp}_4`, body(4), Math.floor(Date.now() / 1000) - 301);
      const foreign = signed(`msg_batch_${stamp}_5`, body(5), undefined, `whsec_${Buffer.alloc(32, 1).toString('base64')}`);
      const { 'webhook-id': _omit, ...noId } = signed(`msg_batch_${stamp}_6`, body(6)).headers;
      const notJson = Buffer.from('not json');
      const signedNotJson = signed(`msg_batch_${stamp}_7`, notJson);
      await receive(again.headers, body(2));
      const batch = (...items: { headers: Record<string, string>; body: Buffer }[]) =>
        receiveWebhookBatch(testDb(), { endpointPublicId: endpoint.public_id, items });
      // Each kind of forgery, after a genuine delivery, refuses the whole batch with its own status.
      for (const [bad, status, message] of [
        [{ headers: tampered.headers, body: body(33) }, 401, 'The x-service-signature does not match.'],
        [{ headers: stale.headers, body: body(4) }, 401, 'The webhook-timestamp is more than five minutes away.'],
        [{ headers: foreign.headers, body: body(5) }, 401, 'The service-signature does not match.'],
        [{ headers: noId, body: body(6) }, 400, undefined],
      ] as const) {
        const refused = await batch({ headers: genuine.headers, body: body(1) }, bad, { headers: genuine.headers, body: body(1) }).catch((e) => e);
        expect(refused).toBeInstanceOf(ServiceError);
        expect(refused.status).toBe(status);
        if (message) expect(refused.detail).toBe(message);
      }
      // A genuine delivery whose body is not JSON is ours but unusable: refused alone.
      const results = await batch(
        { headers: genuine.headers, body: body(1) },
        { headers: again.headers, body: body(2) },
        { headers: signedNotJson.headers, body: notJson },
        { headers: genuine.headers, body: body(1) },
      );
      expect(results.map((r) => [r.id, r.status, r.message])).toEqual([
        [genuine.id, 200, 'Webhook received'],
        [again.id, 200, 'Webhook already received'],
        [signedNotJson.id, 400, 'The body is not valid JSON.'],
        [genuine.id, 200, 'Webhook received'],
      ]);
      const { rows } = await testDb().execute<{ webhook_id: string }>(
        sql`SELECT webhook_id FROM received_webhooks WHERE webhook_id LIKE ${`msg_batch_${stamp}_%`} ORDER BY webhook_id`,
      );
      expect(rows.map((r) => r.webhook_id)).toEqual([genuine.id, again.id]);
      await expect.poll(() => heard.map((h) => h.id).sort()).toEqual([genuine.id, again.id]);
      await expect(
        receiveWebhookBatch(testDb(), { endpointPublicId: 'we_unknown', items: [{ headers: genuine.headers, body: body(1) }] }),
      ).rejects.toMatchObject({ status: 401 });
    } finally {
      await unsubscribe();
    }
  });
});
