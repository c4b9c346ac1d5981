import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { leaseUntilSql } from '../retry-backoff';
import type { Mode } from '../validation';
import { dashboardWebhookUrl } from './endpoints';

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
 * past the attempt's timeout in the same statement (the lease every job
 * takes, lib/retry-backoff.ts; the claim itself is fair-share, per endpoint), so another instance skips
 * them now and anyone retries them if this process dies mid-flight.
 */
export async function claimDueDeliveries(db: Db, limit: number, leaseMs: number, fairness: ClaimFairness): Promise<ClaimedDelivery[]> {
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
      SET attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = ${leaseUntilSql(leaseMs)}
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

export interface HeldClaim {
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
export async function handBack(db: Db, claimed: Map<number, HeldClaim>): Promise<void> {
  if (claimed.size === 0) return;
  const held = [...claimed.values()];
  await db.execute(sql`
    UPDATE webhook_deliveries d
    SET next_attempt_at = now(), attempts = CASE WHEN c.started THEN d.attempts ELSE d.attempts - 1 END
    FROM unnest(${sql.param([...claimed.keys()])}::bigint[], ${sql.param(held.map((h) => h.attempts))}::int[], ${sql.param(held.map((h) => h.started))}::boolean[])
      AS c(id, attempts, started)
    WHERE d.id = c.id AND d.attempts = c.attempts AND d.state = 'pending'`);
}
