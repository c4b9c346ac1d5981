import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { logger } from '../observability/logger';
import { DEFAULT_TIMEOUT_MS, deliverWebhook, type DeliveryAttemptResult, MAX_DELIVERIES_IN_FLIGHT } from './deliver-webhook';
import { claimDueDeliveries, type ClaimedDelivery, handBack, type HeldClaim } from './claim-deliveries';
import { type AttemptOutcome, attemptRecorder, type Record1, type RecordAttemptOptions, recordAttempt, recordAttempts } from './record-attempts';
import { signatureHeaders } from './signing';
import { BATCH_HEADER, MAX_BATCH_BYTES, MAX_BATCH_ITEMS, type BatchItemResult } from './webhook-batch';

/** CONTRACT.md section 6: retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const REFILL_AFTER_MS = 10;
const BUSINESS_ENDPOINT_IN_FLIGHT = 32;

/** WEBHOOK_RETRY_SCHEDULE (milliseconds, comma-separated) or the contract's schedule. */
function retrySchedule(raw = process.env.WEBHOOK_RETRY_SCHEDULE): number[] {
  if (!raw?.trim()) return DEFAULT_RETRY_SCHEDULE_MS;
  const parts = raw.split(',').map((p) => p.trim());
  if (!parts.every((p) => /^\d{1,10}$/.test(p))) throw new Error(`WEBHOOK_RETRY_SCHEDULE must be milliseconds separated by commas, got "${raw}"`);
  return parts.map(Number);
}

interface AttemptOptions extends RecordAttemptOptions {
  timeoutMs: number;
  /** How the outcome is stored; default: one statement of its own. */
  record?: Record1;
}

const signedFor = (d: ClaimedDelivery, body: Buffer) =>
  signatureHeaders({ secret: d.secret, previousSecret: d.previousSecret, webhookId: d.webhookId, timestamp: Math.floor(Date.now() / 1000), body });

/** One attempt of one claimed delivery, signed for this moment, with its result stored. */
async function attemptDelivery(db: Db, d: ClaimedDelivery, o: AttemptOptions): Promise<DeliveryAttemptResult | null> {
  if (d.disabled) {
    await db.execute(sql`UPDATE webhook_deliveries SET state = 'failed' WHERE id = ${d.id} AND attempts = ${d.attempts} AND state = 'pending'`);
    return null;
  }
  const body = Buffer.from(d.body, 'utf8');
  const result = await deliverWebhook({ url: d.url, mode: d.mode, guard: d.kind !== 'dashboard', headers: signedFor(d, body), body, timeoutMs: o.timeoutMs });
  await (o.record ?? ((dd, r) => recordAttempt(db, dd, r, o)))(d, result);
  return result;
}

/**
 * Several claimed deliveries to one dashboard endpoint (our own receiver) in
 * one request: each signed exactly as it would be alone, its headers and body
 * side by side; the receiver verifies each and answers one result per
 * delivery, which is stored as that delivery's attempt. A failed request is
 * every delivery's failed attempt, retried on the usual schedule.
 */
export async function attemptDashboardBatch(db: Db, batch: ClaimedDelivery[], o: AttemptOptions): Promise<void> {
  const deliveries = batch.map((d) => ({ headers: signedFor(d, Buffer.from(d.body, 'utf8')), body: d.body }));
  const body = Buffer.from(JSON.stringify({ deliveries }), 'utf8');
  const sent = await deliverWebhook({
    url: batch[0].url,
    mode: batch[0].mode,
    guard: false,
    headers: { [BATCH_HEADER]: String(batch.length) },
    body,
    timeoutMs: o.timeoutMs,
    keepBody: true,
  });
  let results: BatchItemResult[] | undefined;
  if (sent.ok) {
    try {
      results = (JSON.parse(sent.responseBody ?? '') as { data: { results: BatchItemResult[] } }).data.results;
    } catch {
      results = undefined;
    }
  }
  const outcomes = batch.map((d, i): AttemptOutcome => {
    const item = results?.[i];
    const { responseBody: _whole, ...whole } = sent;
    if (!sent.ok) return { delivery: d, result: whole };
    if (!item || item.id !== d.webhookId) return { delivery: d, result: { ...whole, ok: false, error: 'the batch answer has no result for this delivery' } };
    const ok = item.status >= 200 && item.status < 300;
    return {
      delivery: d,
      result: { ...whole, ok, statusCode: item.status, error: ok ? null : `HTTP ${item.status}`, responseExcerpt: JSON.stringify(item).slice(0, 1000) },
    };
  });
  const record = o.record;
  if (record) await Promise.all(outcomes.map((x) => record(x.delivery, x.result)));
  else await recordAttempts(db, outcomes, o);
}

/**
 * How claimed deliveries are sent: each to a business's endpoint alone; those
 * to a dashboard endpoint (our own receiver) in batches per endpoint.
 */
export function sendingGroups(claimed: ClaimedDelivery[]): ClaimedDelivery[][] {
  const groups: ClaimedDelivery[][] = [];
  const open = new Map<number, { group: ClaimedDelivery[]; bytes: number }>();
  for (const d of claimed) {
    if (d.kind !== 'dashboard' || d.disabled) {
      groups.push([d]);
      continue;
    }
    const bytes = Buffer.byteLength(d.body) * 2 + 1024;
    let current = open.get(d.endpointId);
    if (!current || current.group.length >= MAX_BATCH_ITEMS || current.bytes + bytes > MAX_BATCH_BYTES / 2) {
      current = { group: [], bytes: 0 };
      groups.push(current.group);
      open.set(d.endpointId, current);
    }
    current.group.push(d);
    current.bytes += bytes;
  }
  return groups;
}

/** How long a stopping worker lets its attempts in flight finish before handing the rest back. */
const STOP_WAIT_MS = 5_000;

export interface DeliveryWorkerOptions {
  schedule?: number[];
  timeoutMs?: number;
  pollMs?: number;
  /** Deliveries in flight at once (a dashboard batch counts each of its deliveries). */
  maxInFlight?: number;
  /** For a business's endpoint; default 32, or half of maxInFlight when that is less. */
  maxPerEndpoint?: number;
}

/**
 * The outbox reader: polls for due deliveries every pollMs (and at once while
 * there is more work), sends up to maxInFlight at a time. Several instances
 * share the work through SKIP LOCKED and the lease.
 */
export function startDeliveryWorker(db: Db, opts: DeliveryWorkerOptions = {}): () => Promise<void> {
  const schedule = opts.schedule ?? retrySchedule();
  const timeoutMs = opts.timeoutMs ?? (Number(process.env.WEBHOOK_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS);
  // The lease outlives the attempt's timeout, so no other instance can start the same delivery while one is in flight.
  const leaseMs = timeoutMs + 5_000;
  const pollMs = opts.pollMs ?? 200;
  const maxInFlight = opts.maxInFlight ?? MAX_DELIVERIES_IN_FLIGHT;
  // Half the slots at most for one dashboard endpoint, so the others always have room: room for two full batches, so
  // one can be sent while the other is answered. A business's own receiver gets at most 32 requests at once.
  const perDashboard = Math.max(1, Math.floor(maxInFlight / 2));
  const perEndpoint = opts.maxPerEndpoint ?? Math.min(BUSINESS_ENDPOINT_IN_FLIGHT, perDashboard);
  const byEndpoint = new Map<number, number>();
  const record = attemptRecorder(db, { schedule });
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking = false;
  const inFlight = new Set<Promise<unknown>>();
  /** Claimed deliveries not yet recorded, by id, to hand them back on stop. */
  const claimedNow = new Map<number, HeldClaim>();
  let running: Promise<void> = Promise.resolve();

  let foundWork = false;
  const wakeIn = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = tick();
    }, ms);
  };
  // A wake-up asked for while a claim runs is kept for right after it, never lost.
  let wokenWhileTicking = false;
  const wakeNow = () => {
    if (ticking) wokenWhileTicking = true;
    else wakeIn(0);
  };
  // Slots freed within a few milliseconds of each other are refilled by one claim, not one claim each.
  let soon: NodeJS.Timeout | undefined;
  const wakeSoon = () => {
    if (stopped) return;
    soon ??= setTimeout(() => {
      soon = undefined;
      wakeNow();
    }, REFILL_AFTER_MS);
  };

  async function tick() {
    if (stopped || ticking) return;
    ticking = true;
    wokenWhileTicking = false;
    let next = pollMs;
    try {
      const free = maxInFlight - inFlight.size;
      if (free > 0) {
        const claimed = await claimDueDeliveries(db, free, leaseMs, { perEndpoint, perDashboard, inFlight: byEndpoint });
        // Stopped while claiming: these are handed back by stop(), never started.
        for (const d of claimed) claimedNow.set(d.id, { attempts: d.attempts, started: !stopped });
        if (stopped) return;
        const attempt = { schedule, timeoutMs, record };
        for (const group of sendingGroups(claimed)) {
          const sent: Promise<unknown> =
            group.length === 1 && (group[0].kind !== 'dashboard' || group[0].disabled)
              ? attemptDelivery(db, group[0], attempt)
              : attemptDashboardBatch(db, group, attempt);
          for (const d of group) {
            byEndpoint.set(d.endpointId, (byEndpoint.get(d.endpointId) ?? 0) + 1);
            const p = sent
              .catch((err) => logger.error({ err }, 'webhook delivery failed to record'))
              .finally(() => {
                inFlight.delete(p);
                claimedNow.delete(d.id);
                const was = byEndpoint.get(d.endpointId)!;
                if (was === 1) byEndpoint.delete(d.endpointId);
                else byEndpoint.set(d.endpointId, was - 1);
                // The last claim found work, so more may be waiting for this slot (or this endpoint's share).
                if (foundWork) wakeSoon();
              });
            inFlight.add(p);
          }
        }
        foundWork = claimed.length > 0;
        if (claimed.length === free) next = 0;
      }
    } catch (err) {
      logger.error({ err }, 'webhook worker: claim failed');
      next = Math.max(pollMs, 1000);
    } finally {
      ticking = false;
    }
    wakeIn(wokenWhileTicking ? 0 : next);
  }

  wakeIn(0);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(soon);
    await running;
    await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, STOP_WAIT_MS))]);
    await handBack(db, claimedNow).catch((err) => logger.error({ err }, 'webhook worker: hand back failed'));
  };
}
