import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ServiceError } from '../errors';
import type { Mode } from '../validation';
import { liveUpdateOfEvent, liveUpdatesChannel } from './live-updates';
import type { BatchItemResult } from './webhook-batch';
import { bodySignature, safeEqual, serviceSignature, standardSignature } from './signing';

const TIMESTAMP_TOLERANCE_S = 5 * 60;

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

interface ReceivingEndpoint {
  id: number;
  business_id: number;
  mode: Mode;
  secrets: string[];
}

async function receivingEndpoint(db: Db, publicId: string): Promise<ReceivingEndpoint> {
  const { rows } = await db.execute<{ id: number; business_id: number; mode: Mode; secret: string; previous_secret: string | null }>(sql`
    SELECT id, business_id, mode, secret, CASE WHEN previous_secret_expires_at > now() THEN previous_secret END AS previous_secret
    FROM webhook_endpoints WHERE public_id = ${publicId} AND kind = 'dashboard' AND disabled_at IS NULL`);
  const endpoint = rows[0];
  if (!endpoint) throw forged('No receiving endpoint has this id.');
  return { ...endpoint, secrets: [endpoint.secret, endpoint.previous_secret].filter((s): s is string => !!s) };
}

interface DeliveryHeaders {
  id: string;
  timestamp: string;
  signatures: string;
  service: string;
  bodySig: string | null;
}

/** The headers a delivery must carry, well formed (400 otherwise); checked before anything is looked up. */
function deliveryHeaders(header: (name: string) => string | null): DeliveryHeaders {
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  const service = header('service-signature');
  const missing = Object.entries({ 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures, 'service-signature': service })
    .filter(([, v]) => !v)
    .map(([k]) => [k, `The ${k} header is required.`]);
  if (missing.length) throw new ServiceError('validation_error', Object.fromEntries(missing));
  if (!/^[A-Za-z0-9_.:-]{1,255}$/.test(id!)) throw new ServiceError('validation_error', { 'webhook-id': 'The webhook-id header is malformed.' });
  if (!/^\d{1,12}$/.test(timestamp!))
    throw new ServiceError('validation_error', { 'webhook-timestamp': 'The webhook-timestamp header must be whole seconds.' });
  return { id: id!, timestamp: timestamp!, signatures: signatures!, service: service!, bodySig: header('x-service-signature') };
}

/** Every signature check of one delivery against the endpoint's secrets; throws 401 for any that fails. */
function verifySignatures(secrets: string[], h: DeliveryHeaders, body: Buffer, now: number): void {
  if (Math.abs(now - Number(h.timestamp)) > TIMESTAMP_TOLERANCE_S) throw forged('The webhook-timestamp is more than five minutes away.');
  if (!secrets.some((s) => safeEqual(h.service, serviceSignature(s)))) throw forged('The service-signature does not match.');
  const bodySig = h.bodySig;
  if (bodySig !== null && !secrets.some((s) => safeEqual(bodySig, bodySignature(s, body)))) throw forged('The x-service-signature does not match.');
  const offered = h.signatures.split(' ').filter((s) => s.startsWith('v1,'));
  const expected = secrets.map((s) => standardSignature(s, h.id, h.timestamp, body));
  if (!offered.some((given) => expected.some((e) => safeEqual(given, e)))) throw forged('The webhook-signature does not match.');
}

/** A verified delivery's body: ours, but it must still be JSON. */
function parseEvent(h: DeliveryHeaders, body: Buffer): { id: string; event: unknown } {
  try {
    return { id: h.id, event: JSON.parse(body.toString('utf8')) };
  } catch {
    throw new ServiceError('validation_error', { body: 'The body is not valid JSON.' });
  }
}

/**
 * Keeps each verified webhook-id once and, for the new ones, tells every app
 * instance through NOTIFY so open dashboard views refresh: one statement for
 * any number of them. Answers the ids that were new.
 */
async function keepOnce(db: Db, endpoint: ReceivingEndpoint, verified: { id: string; event: unknown }[]): Promise<Set<string>> {
  const channel = liveUpdatesChannel(endpoint.business_id, endpoint.mode);
  const ids = verified.map((v) => v.id);
  const updates = verified.map((v) => JSON.stringify(liveUpdateOfEvent(v.id, v.event)));
  const { rows } = await db.execute<{ webhook_id: string }>(sql`
    WITH input AS (SELECT DISTINCT ON (id) id, update FROM unnest(${sql.param(ids)}::text[], ${sql.param(updates)}::text[]) AS t(id, update) ORDER BY id),
    fresh AS (
      INSERT INTO received_webhooks (webhook_id, endpoint_id) SELECT id, ${endpoint.id} FROM input
      ON CONFLICT (webhook_id) DO NOTHING RETURNING webhook_id
    )
    SELECT f.webhook_id, pg_notify(${channel}, i.update) FROM fresh f JOIN input i ON i.id = f.webhook_id`);
  return new Set(rows.map((r) => r.webhook_id));
}

/**
 * Our own receiving endpoint: verifies every signature on the raw body with
 * the endpoint's secrets (the previous one too while its overlap lasts),
 * refuses timestamps more than five minutes away, keeps each webhook-id once
 * and, for a new one, tells every app instance through NOTIFY so open
 * dashboard views refresh. Nothing is written unless all checks pass.
 */
export async function receiveWebhook(db: Db, o: ReceiveWebhookOptions): Promise<ReceiveWebhookResult> {
  const headers = deliveryHeaders((name) => o.headers.get(name));
  const endpoint = await receivingEndpoint(db, o.endpointPublicId);
  verifySignatures(endpoint.secrets, headers, o.body, o.now ?? Math.floor(Date.now() / 1000));
  const verified = parseEvent(headers, o.body);
  const fresh = await keepOnce(db, endpoint, [verified]);
  return { webhookId: verified.id, duplicate: !fresh.has(verified.id) };
}

/** One delivery inside a batch: the headers and exact body it would carry alone. */
export interface BatchedDelivery {
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * A batch of our own deliveries to one dashboard endpoint, sent in one
 * request by the delivery worker. Each is verified exactly as if it came
 * alone (its own signatures over its own body), as it arrives: the first that
 * is not ours refuses the whole batch (400 or 401) and nothing more is read,
 * so a sender without the secret costs one delivery's bytes and one check.
 * Every genuine one is kept once, all in one statement. An unknown endpoint
 * refuses the whole batch before anything is read.
 */
export async function receiveWebhookBatch(
  db: Db,
  o: { endpointPublicId: string; items: AsyncIterable<BatchedDelivery> | Iterable<BatchedDelivery>; now?: number },
): Promise<BatchItemResult[]> {
  const endpoint = await receivingEndpoint(db, o.endpointPublicId);
  const now = o.now ?? Math.floor(Date.now() / 1000);
  const checked: ({ id: string; event: unknown } | { id: string; refused: ServiceError })[] = [];
  for await (const item of o.items) {
    const headers = deliveryHeaders((name) => item.headers[name] ?? null);
    verifySignatures(endpoint.secrets, headers, item.body, now);
    try {
      checked.push(parseEvent(headers, item.body));
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      checked.push({ id: headers.id, refused: err });
    }
  }
  const verified = checked.filter((c): c is { id: string; event: unknown } => !('refused' in c));
  const fresh = verified.length ? await keepOnce(db, endpoint, verified) : new Set<string>();
  return checked.map((c) =>
    'refused' in c
      ? { id: c.id, status: c.refused.status, message: typeof c.refused.detail === 'string' ? c.refused.detail : Object.values(c.refused.detail).join(' ') }
      : { id: c.id, status: 200, message: fresh.has(c.id) ? 'Webhook received' : 'Webhook already received' },
  );
}
