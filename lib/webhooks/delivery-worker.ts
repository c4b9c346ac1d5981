import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { logger } from '../observability/logger';
import { metrics } from '../observability/metrics';
import type { Mode } from '../validation';
import { DEFAULT_TIMEOUT_MS, deliverWebhook, type DeliveryAttemptResult, MAX_DELIVERIES_IN_FLIGHT } from './deliver-webhook';
import { dashboardWebhookUrl } from './endpoints';
import { signatureHeaders } from './signing';
import { BATCH_HEADER, MAX_BATCH_BYTES, MAX_BATCH_ITEMS, type BatchItemResult } from './webhook-batch';

/** CONTRACT.md section 6: retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
const REFILL_AFTER_MS = 10;
const BUSINESS_ENDPOINT_IN_FLIGHT = 32;
// Outcomes arriving this close together are stored by one statement.
const RECORD_AFTER_MS = 2;

/** WEBHOOK_RETRY_SCHEDULE (milliseconds, comma-separated) or the contract's schedule. */
function retrySchedule(raw = process.env.WEBHOOK_RETRY_SCHEDULE): number[] {
  if (!raw?.trim()) return DEFAULT_RETRY_SCHEDULE_MS;
  const parts = raw.split(',').map((p) => p.trim());
  if (!parts.every((p) => /^\d{1,10}$/.test(p))) throw new Error(`WEBHOOK_RETRY_SCHEDULE must be milliseconds separated by commas, got "${raw}"`);
  return parts.map(Number);
}

export interface ClaimedDelivery {
  id: number;
  attempts: number;
  endpointId: number;
  webhookId: string;
  body: string;
  mode: Mode;
  kind: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  disabled: boolean;
}

interface ClaimFairness {
  /** The most deliveries one business endpoint may have in flight from this worker. */
  perEndpoint: number;
  /** The same for a dashboard endpoint (our own receiver, taking batches). */
  perDashboard: number;
  /** Deliveries in flight now, by endpoint id. */
  inFlight: Map<number, number>;
}

/**
 * Takes up to `limit` due deliveries and leases them: next_attempt_at moves
 * past the attempt's timeout in the same statement, so another instance skips
 * them now and anyone retries them if this process dies mid-flight.
 */
async function claimDueDeliveries(db: Db, limit: number, leaseMs: number, fairness: ClaimFairness): Promise<ClaimedDelivery[]> {
  const busyIds = `{${[...fairness.inFlight.keys()].join(',')}}`;
  const busyCounts = `{${[...fairness.inFlight.values()].join(',')}}`;
  // Endpoints with pending work are found by a skip scan of the pending index, then
  // each gives at most its share, oldest first: one business's backlog or slow
  // receiver cannot hold up another's events.
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    WITH RECURSIVE endpoints AS (
      (SELECT endpoint_id FROM webhook_deliveries WHERE state = 'pending' ORDER BY endpoint_id LIMIT 1)
      UNION ALL
      SELECT (SELECT d.endpoint_id FROM webhook_deliveries d WHERE d.state = 'pending' AND d.endpoint_id > e.endpoint_id ORDER BY d.endpoint_id LIMIT 1)
      FROM endpoints e WHERE e.endpoint_id IS NOT NULL
    ), shares AS (
      SELECT e.endpoint_id, CASE WHEN w.kind = 'dashboard' THEN ${fairness.perDashboard}::int ELSE ${fairness.perEndpoint}::int END AS share
      FROM endpoints e JOIN webhook_endpoints w ON w.id = e.endpoint_id
    ), due AS (
      SELECT pick.id FROM shares e
      LEFT JOIN unnest(${busyIds}::int[], ${busyCounts}::int[]) AS busy(endpoint_id, n) ON busy.endpoint_id = e.endpoint_id
      CROSS JOIN LATERAL (
        SELECT locked.id, locked.next_attempt_at, row_number() OVER (ORDER BY locked.next_attempt_at) AS rn
        FROM (
          SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
          WHERE d.endpoint_id = e.endpoint_id AND d.state = 'pending' AND d.next_attempt_at <= now()
          ORDER BY d.next_attempt_at
          LIMIT greatest(e.share - coalesce(busy.n, 0), 0)
          FOR UPDATE SKIP LOCKED
        ) locked
      ) pick
      -- Round robin: every endpoint's oldest before any endpoint's second.
      ORDER BY pick.rn, pick.next_attempt_at
      LIMIT ${limit}
    ), claimed AS (
      UPDATE webhook_deliveries d
      SET attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
      -- The ids again as an array: the plan then probes the primary key whatever the statistics say (with stale ones,
      -- the join read the whole table each time; bench/batches/NOTE.md).
      FROM due WHERE d.id = due.id AND d.id = ANY(ARRAY(SELECT id FROM due))
      RETURNING d.id, d.attempts, d.event_id, d.endpoint_id
    )
    SELECT c.id, c.attempts, c.endpoint_id, e.event_id AS webhook_id, e.body, e.mode, w.kind, w.url, w.public_id, w.secret,
           CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret END AS previous_secret,
           w.disabled_at IS NOT NULL AS disabled
    FROM claimed c
    JOIN webhook_events e ON e.id = c.event_id
    JOIN webhook_endpoints w ON w.id = c.endpoint_id`);
  return rows.map((r) => ({
    id: Number(r.id),
    attempts: Number(r.attempts),
    endpointId: Number(r.endpoint_id),
    webhookId: String(r.webhook_id),
    body: String(r.body),
    mode: r.mode as Mode,
    kind: String(r.kind),
    // The dashboard's own endpoint is wherever this instance serves now, not where it served when the business was created.
    url: r.kind === 'dashboard' ? dashboardWebhookUrl(String(r.public_id)) : String(r.url),
    secret: String(r.secret),
    previousSecret: (r.previous_secret as string | null) ?? null,
    disabled: Boolean(r.disabled),
  }));
}

interface RecordAttemptOptions {
  schedule: number[];
}

/** What the business sees of a failed attempt to a non-public address, instead of its status, reply or network error. */
export const NON_PUBLIC_FAILURE = 'Delivery failed; details are not shown for non-public addresses.';

interface AttemptDetail {
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

export interface AttemptRow extends Omit<AttemptDetail, 'duration_ms'> {
  duration_ms: number | null;
  /** Only for the back office. */
  private_detail: AttemptDetail | null;
}

/**
 * One attempt as stored. Its columns are what the business may see; for a
 * non-public address (CONTRACT.md section 6) they say only whether it worked,
 * and the real outcome goes to private_detail, which only the back office
 * reads: a reader of the columns cannot show it by mistake. Even the status
 * code and the duration stay out, as they tell an open port from a closed one.
 */
export function attemptRow(r: DeliveryAttemptResult): AttemptRow {
  const detail = { status_code: r.statusCode, duration_ms: r.durationMs, error: r.error, response_excerpt: r.responseExcerpt };
  if (!r.nonPublic) return { ...detail, private_detail: null };
  return { status_code: null, duration_ms: null, error: r.ok ? null : NON_PUBLIC_FAILURE, response_excerpt: null, private_detail: detail };
}

/** One attempt's result, for recordAttempts. */
interface AttemptOutcome {
  delivery: ClaimedDelivery;
  result: DeliveryAttemptResult;
}

/**
 * Stores the attempts and moves each delivery on: delivered, retried later,
 * or failed for good, all in one statement. Only the holder of the lease
 * (same attempts count, still pending) changes a delivery. An attempt to a
 * non-public address shows the business only times that do not depend on the
 * receiver: it is stamped, and its delivery delivered, at the attempt's start;
 * the real end is kept in private_detail (finished_at) for the back office,
 * and the delivery log shows the next attempt counted from the start.
 */
async function recordAttempts(db: Db, outcomes: AttemptOutcome[], o: RecordAttemptOptions): Promise<void> {
  if (outcomes.length === 0) return;
  const columns = {
    id: [] as number[],
    attempts: [] as number[],
    outcome: [] as string[],
    delay: [] as number[],
    status: [] as (number | null)[],
    duration: [] as (number | null)[],
    error: [] as (string | null)[],
    excerpt: [] as (string | null)[],
    detail: [] as (string | null)[],
  };
  const gone = new Set<number>();
  for (const { delivery: d, result: r } of outcomes) {
    let outcome = 'retry';
    let delay = 0;
    if (r.ok) outcome = 'delivered';
    else if (r.statusCode === 410 || d.attempts > o.schedule.length) outcome = 'failed';
    else {
      // A non-public address's Retry-After would show the business one of its reply headers through the next attempt's time.
      const retryAfterMs = r.nonPublic ? 0 : (r.retryAfterMs ?? 0);
      delay = Math.min(Math.max(o.schedule[d.attempts - 1], retryAfterMs), MAX_RETRY_AFTER_MS);
    }
    // The receiver says the URL is gone for good: stop sending there until it is registered again.
    if (r.statusCode === 410) gone.add(d.endpointId);
    const row = attemptRow(r);
    columns.id.push(d.id);
    columns.attempts.push(d.attempts);
    columns.outcome.push(outcome);
    columns.delay.push(delay);
    columns.status.push(row.status_code);
    columns.duration.push(row.duration_ms);
    columns.error.push(row.error);
    columns.excerpt.push(row.response_excerpt);
    columns.detail.push(row.private_detail && JSON.stringify(row.private_detail));
  }
  const c = columns;
  const recorded = await db.execute<{ outcome: string; lag: number }>(sql`
    WITH input AS (
      SELECT * FROM unnest(${sql.param(c.id)}::bigint[], ${sql.param(c.attempts)}::int[], ${sql.param(c.outcome)}::text[], ${sql.param(c.delay)}::bigint[],
                           ${sql.param(c.status)}::int[], ${sql.param(c.duration)}::int[], ${sql.param(c.error)}::text[], ${sql.param(c.excerpt)}::text[],
                           ${sql.param(c.detail)}::jsonb[])
        AS t(id, attempts, outcome, delay_ms, status_code, duration_ms, error, response_excerpt, private_detail)
    ), attempt AS (
      INSERT INTO webhook_attempts (delivery_id, created_at, status_code, duration_ms, error, response_excerpt, private_detail)
      SELECT i.id, CASE WHEN i.private_detail IS NULL THEN now() ELSE coalesce(d.last_attempt_at, now()) END,
             i.status_code, i.duration_ms, i.error, i.response_excerpt,
             i.private_detail || jsonb_build_object('finished_at', now())
      FROM input i JOIN webhook_deliveries d ON d.id = i.id
      -- As in the claim: the ids as an array, so the primary key is probed whatever the statistics say.
      WHERE d.id = ANY(${sql.param(c.id)}::bigint[])
    )
    UPDATE webhook_deliveries d
    SET state = CASE WHEN i.outcome = 'retry' THEN d.state ELSE i.outcome END,
        delivered_at = CASE WHEN i.outcome <> 'delivered' THEN d.delivered_at WHEN i.private_detail IS NULL THEN now() ELSE d.last_attempt_at END,
        next_attempt_at = CASE WHEN i.outcome = 'retry' THEN now() + i.delay_ms * interval '1 millisecond' ELSE d.next_attempt_at END
    -- IS TRUE (state is never null) keeps the planner off the partial index of pending rows: with statistics taken while
    -- the queue was empty, it read that whole index, every row of a backlog, for each call.
    FROM input i WHERE d.id = i.id AND d.id = ANY(${sql.param(c.id)}::bigint[]) AND d.attempts = i.attempts AND (d.state = 'pending') IS TRUE
    RETURNING i.outcome, extract(epoch FROM now() - d.created_at)::float8 AS lag`);
  const m = metrics();
  if (m) {
    for (const r of recorded.rows) {
      m.deliveries.inc({ outcome: r.outcome });
      // The delivery row is written in the transaction that commits its event.
      if (r.outcome === 'delivered') m.deliveryLagSeconds.observe(r.lag);
    }
  }
  if (gone.size > 0) {
    await db.execute(
      sql`UPDATE webhook_endpoints SET disabled_at = now(), updated_at = now() WHERE id = ANY(${sql.param([...gone])}::int[]) AND disabled_at IS NULL`,
    );
  }
}

/** Stores one attempt and moves its delivery on (recordAttempts of one). */
async function recordAttempt(db: Db, d: ClaimedDelivery, r: DeliveryAttemptResult, o: RecordAttemptOptions): Promise<void> {
  await recordAttempts(db, [{ delivery: d, result: r }], o);
}

type Record1 = (d: ClaimedDelivery, r: DeliveryAttemptResult) => Promise<void>;

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

/**
 * Gathers the outcomes of attempts that finish within a few milliseconds of
 * each other and stores them with one statement; each caller's promise
 * settles once its own outcome is stored.
 */
function attemptRecorder(db: Db, o: RecordAttemptOptions): Record1 {
  let queue: { outcome: AttemptOutcome; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let _timer: NodeJS.Timeout | undefined;
  const flush = () => {
    _timer = undefined;
    const batch = queue;
    queue = [];
    recordAttempts(
      db,
      batch.map((b) => b.outcome),
      o,
    ).then(
      () => {
        for (const b of batch) b.resolve();
      },
      (err) => {
        for (const b of batch) b.reject(err);
      },
    );
  };
  return (delivery, result) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ outcome: { delivery, result }, resolve, reject });
      _timer ??= setTimeout(flush, RECORD_AFTER_MS);
    });
}

/** How long a stopping worker lets its attempts in flight finish before handing the rest back. */
const STOP_WAIT_MS = 5_000;

interface HeldClaim {
  attempts: number;
  /** Its attempt was sent (it may have reached the receiver); else the claim's count is taken back. */
  started: boolean;
}

/**
 * Makes deliveries this worker claimed but did not finish due now, so another
 * instance takes them at once instead of after the lease. Only those still
 * held by this claim (same attempts count, still pending) move; an attempt that
 * finishes later records nothing over another instance's newer claim.
 */
async function handBack(db: Db, claimed: Map<number, HeldClaim>): Promise<void> {
  if (claimed.size === 0) return;
  const held = [...claimed.values()];
  await db.execute(sql`
    UPDATE webhook_deliveries d
    SET next_attempt_at = now(), attempts = CASE WHEN c.started THEN d.attempts ELSE d.attempts - 1 END
    FROM unnest(${sql.param([...claimed.keys()])}::bigint[], ${sql.param(held.map((h) => h.attempts))}::int[], ${sql.param(held.map((h) => h.started))}::boolean[])
      AS c(id, attempts, started)
    WHERE d.id = c.id AND d.attempts = c.attempts AND d.state = 'pending'`);
}

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
