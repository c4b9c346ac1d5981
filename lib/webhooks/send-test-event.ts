import { recordAudit } from '../audit';
import type { Actor } from '../actor';
import type { Db } from '../db/client';
import { SharedBuckets } from '../rate-limits/shared-buckets';
import { ServiceError } from '../errors';
import { randomBase62 } from '../ids';
import { logger } from '../observability/logger';
import type { Mode } from '../validation';
import { deliverWebhook } from './deliver-webhook';
import { attemptRow } from './record-attempts';
import { findEndpoint } from './endpoints';
import { payoutEventPayload } from './payloads';
import { signatureHeaders } from './signing';
import { resolveWebhookTarget } from './url-guard';

/** Sent with every test event, so a receiver can tell it from a real one before touching an order. */
const TEST_EVENT_HEADER = 'webhook-test';
/** Test events' references start with this: no payout has such a reference. */
const TEST_REFERENCE_PREFIX = 'test_';

/** One test event per business and mode in this many milliseconds, and never two at once. */
const TEST_EVENT_INTERVAL_MS = 5_000;

// The interval is a shared bucket of one token, so it holds across the fleet; "never two at once" is this process's.
const testEventBuckets = new SharedBuckets('test-event', { perSecond: 1000 / TEST_EVENT_INTERVAL_MS, burst: 1, lease: 1 });
const sending = new Set<string>();

async function takeTestEventSlot(db: Db, key: string): Promise<void> {
  if (sending.has(key) || !(await testEventBuckets.take(db, key)).ok) {
    throw new ServiceError('rate_limited', 'A test event was sent moments ago: wait a few seconds before sending another.');
  }
  sending.add(key);
}

export interface SendTestEventOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
}

export interface TestEventResult {
  url: string;
  webhookId: string;
  body: string;
  /**
   * Sent in the background, answered before any reply: the address is not public, so how long
   * it takes to answer (a closed port, a slow or silent server) is the server's network, never shown.
   */
  queued: boolean;
  ok: boolean;
  /** What the business may see: for a non-public address only whether it worked (as the delivery log). */
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

/**
 * Sends one signed payout.success-shaped event to the business's endpoint of
 * the mode, now, once: shaped like SPEC.md's bank payout event, with a test_
 * reference and the webhook-test header. It touches no money and no outbox, so
 * it never shows in the events API; its outcome is answered and audited. To an
 * address not public it is queued: answered at once, its outcome only audited.
 * One per business and mode every TEST_EVENT_INTERVAL_MS, one at a time: else rate_limited.
 */
export async function sendTestEvent(db: Db, opts: SendTestEventOptions): Promise<TestEventResult> {
  const endpoint = await findEndpoint(db, opts.businessId, opts.mode, 'business');
  if (!endpoint) throw new ServiceError('validation_error', { url: `Set a ${opts.mode} webhook URL first.` });
  const slotKey = `${opts.businessId}:${opts.mode}`;
  await takeTestEventSlot(db, slotKey);
  const release = () => sending.delete(slotKey);
  try {
    const event = buildTestEvent(opts, endpoint);
    const nonPublic = await resolveWebhookTarget(endpoint.url, opts.mode).then(
      (t) => !t.public,
      () => false,
    );
    const delivery = deliverWebhook({
      url: endpoint.url,
      mode: opts.mode,
      guard: true,
      headers: event.headers,
      body: Buffer.from(event.body, 'utf8'),
      timeoutMs: 10_000,
    });
    if (nonPublic) {
      // The outcome is audited when known but stamped now, so the log shows no timing either; the slot
      // stays taken until then, so there are never two at once.
      const startedAt = new Date();
      void delivery
        .then((result) => auditTestEvent(db, opts, endpoint.url, result.ok, null, startedAt))
        .catch((err) => logger.error({ err }, 'test event: delivery failed to record'))
        .finally(release);
      return {
        url: endpoint.url,
        webhookId: event.webhookId,
        body: event.body,
        queued: true,
        ok: true,
        statusCode: null,
        durationMs: null,
        error: null,
        responseExcerpt: null,
      };
    }
    try {
      const result = await delivery;
      const shown = attemptRow(result);
      await auditTestEvent(db, opts, endpoint.url, result.ok, shown.status_code);
      return {
        url: endpoint.url,
        webhookId: event.webhookId,
        body: event.body,
        queued: false,
        ok: result.ok,
        statusCode: shown.status_code,
        durationMs: shown.duration_ms,
        error: shown.error,
        responseExcerpt: shown.response_excerpt,
      };
    } finally {
      release();
    }
  } catch (err) {
    release();
    throw err;
  }
}

function auditTestEvent(db: Db, opts: SendTestEventOptions, url: string, ok: boolean, statusCode: number | null, at?: Date): Promise<void> {
  return recordAudit(db, {
    businessId: opts.businessId,
    mode: opts.mode,
    actor: opts.actor,
    action: 'webhook.test_sent',
    target: url,
    details: { ok, status_code: statusCode },
    at,
  });
}

function buildTestEvent(opts: SendTestEventOptions, endpoint: NonNullable<Awaited<ReturnType<typeof findEndpoint>>>) {
  const now = new Date();
  const reference = `${TEST_REFERENCE_PREFIX}${randomBase62(20)}`;
  const body = JSON.stringify(
    payoutEventPayload({
      status: 'success',
      mode: opts.mode,
      payoutType: 'bank',
      currency: 'ETB',
      amount: 100,
      reference,
      customer: { first_name: 'Test', last_name: 'Event' },
      sourceCardNumber: '0000000000000000',
      bankSlug: 'test',
      accountNumber: '0000000000',
      accountName: 'Test event',
      createdAt: now,
      updatedAt: now,
    }),
  );
  const webhookId = `msg_test_${randomBase62(20)}`;
  const headers = {
    ...signatureHeaders({
      secret: endpoint.secret,
      previousSecret: endpoint.previousSecret,
      webhookId,
      timestamp: Math.floor(now.getTime() / 1000),
      body: Buffer.from(body, 'utf8'),
    }),
    [TEST_EVENT_HEADER]: 'true',
  };
  return { webhookId, body, headers };
}
