import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ServiceError } from '../errors';
import type { Mode } from '../validation';
import { liveUpdateOfEvent, liveUpdatesChannel } from './live-updates';
import { bodySignature, safeEqual, serviceSignature, standardSignature } from './signing';

export const TIMESTAMP_TOLERANCE_S = 5 * 60;

export interface ReceiveWebhookOptions {
  endpointPublicId: string;
  headers: Headers;
  /** The raw bytes as received: the signatures are over these, not over a re-serialised JSON. */
  body: Buffer;
  /** Seconds since the epoch; for tests. */
  now?: number;
}

export interface ReceiveWebhookResult {
  webhookId: string;
  duplicate: boolean;
}

const forged = (why: string) => new ServiceError('unauthorized', why);

/**
 * Our own receiving endpoint: verifies every signature on the raw body with
 * the endpoint's secrets (the previous one too while its overlap lasts),
 * refuses timestamps more than five minutes away, keeps each webhook-id once
 * and, for a new one, tells every app instance through NOTIFY so open
 * dashboard views refresh. Nothing is written unless all checks pass.
 */
export async function receiveWebhook(db: Db, o: ReceiveWebhookOptions): Promise<ReceiveWebhookResult> {
  const id = o.headers.get('webhook-id');
  const timestamp = o.headers.get('webhook-timestamp');
  const signatures = o.headers.get('webhook-signature');
  const service = o.headers.get('service-signature');
  const missing = Object.entries({ 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures, 'service-signature': service })
    .filter(([, v]) => !v)
    .map(([k]) => [k, `The ${k} header is required.`]);
  if (missing.length) throw new ServiceError('validation_error', Object.fromEntries(missing));
  if (!/^[A-Za-z0-9_.:-]{1,255}$/.test(id!)) throw new ServiceError('validation_error', { 'webhook-id': 'The webhook-id header is malformed.' });
  if (!/^\d{1,12}$/.test(timestamp!))
    throw new ServiceError('validation_error', { 'webhook-timestamp': 'The webhook-timestamp header must be whole seconds.' });

  const { rows } = await db.execute<{ id: number; business_id: number; mode: Mode; secret: string; previous_secret: string | null }>(sql`
    SELECT id, business_id, mode, secret, CASE WHEN previous_secret_expires_at > now() THEN previous_secret END AS previous_secret
    FROM webhook_endpoints WHERE public_id = ${o.endpointPublicId} AND kind = 'dashboard' AND disabled_at IS NULL`);
  const endpoint = rows[0];
  if (!endpoint) throw forged('No receiving endpoint has this id.');
  const secrets = [endpoint.secret, endpoint.previous_secret].filter((s): s is string => !!s);

  const now = o.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > TIMESTAMP_TOLERANCE_S) throw forged('The webhook-timestamp is more than five minutes away.');
  if (!secrets.some((s) => safeEqual(service!, serviceSignature(s)))) throw forged('The service-signature does not match.');
  const bodySig = o.headers.get('x-service-signature');
  if (bodySig !== null && !secrets.some((s) => safeEqual(bodySig, bodySignature(s, o.body)))) throw forged('The x-service-signature does not match.');
  const offered = signatures!.split(' ').filter((s) => s.startsWith('v1,'));
  const expected = secrets.map((s) => standardSignature(s, id!, timestamp!, o.body));
  if (!offered.some((given) => expected.some((e) => safeEqual(given, e)))) throw forged('The webhook-signature does not match.');

  let event: unknown;
  try {
    event = JSON.parse(o.body.toString('utf8'));
  } catch {
    throw new ServiceError('validation_error', { body: 'The body is not valid JSON.' });
  }
  const channel = liveUpdatesChannel(endpoint.business_id, endpoint.mode);
  const inserted = await db.execute(sql`
    WITH fresh AS (
      INSERT INTO received_webhooks (webhook_id, endpoint_id) VALUES (${id}, ${endpoint.id})
      ON CONFLICT (webhook_id) DO NOTHING RETURNING webhook_id
    )
    SELECT pg_notify(${channel}, ${JSON.stringify(liveUpdateOfEvent(id!, event))}) FROM fresh`);
  return { webhookId: id!, duplicate: inserted.rows.length === 0 };
}
