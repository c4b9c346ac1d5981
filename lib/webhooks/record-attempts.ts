import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { metrics } from '../observability/metrics';
import { backoffMs } from '../retry-backoff';
import type { ClaimedDelivery } from './claim-deliveries';
import type { DeliveryAttemptResult } from './deliver-webhook';

const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
// Outcomes arriving this close together are stored by one statement.
const RECORD_AFTER_MS = 2;

export interface RecordAttemptOptions {
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
export interface AttemptOutcome {
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
export async function recordAttempts(db: Db, outcomes: AttemptOutcome[], o: RecordAttemptOptions): Promise<void> {
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
      delay = Math.min(Math.max(backoffMs(d.attempts, o.schedule), retryAfterMs), MAX_RETRY_AFTER_MS);
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
export async function recordAttempt(db: Db, d: ClaimedDelivery, r: DeliveryAttemptResult, o: RecordAttemptOptions): Promise<void> {
  await recordAttempts(db, [{ delivery: d, result: r }], o);
}

export type Record1 = (d: ClaimedDelivery, r: DeliveryAttemptResult) => Promise<void>;

/**
 * Gathers the outcomes of attempts that finish within a few milliseconds of
 * each other and stores them with one statement; each caller's promise
 * settles once its own outcome is stored.
 */
export function attemptRecorder(db: Db, o: RecordAttemptOptions): Record1 {
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
