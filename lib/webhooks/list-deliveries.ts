import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ServiceError } from '../errors';
import { pageCount, type PageRequest } from '../pagination';
import type { Mode } from '../validation';

export interface ListDeliveriesOptions {
  businessId: number;
  mode: Mode;
  page: PageRequest;
  /** One event's deliveries only (its webhook-id). */
  eventId?: string;
}

/**
 * The delivery log for the back office: each delivery, newest first, with every
 * attempt as it really went, including what an attempt to a non-public address
 * keeps from the business (its private_detail wins over the columns, its real
 * end time over the start the business is shown).
 */
export async function listDeliveries(db: Db, o: ListDeliveriesOptions) {
  if (o.mode !== 'test' && o.mode !== 'live') throw new ServiceError('validation_error', { mode: 'Mode must be test or live.' });
  const where = sql`e.business_id = ${o.businessId} AND e.mode = ${o.mode} ${o.eventId ? sql`AND e.event_id = ${o.eventId}` : sql``}`;
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT d.id, e.event_id, e.type, w.kind, w.url, d.state, d.attempts, d.next_attempt_at, d.created_at,
      coalesce((SELECT (a.private_detail->>'finished_at')::timestamptz FROM webhook_attempts a
                WHERE a.delivery_id = d.id AND d.delivered_at IS NOT NULL ORDER BY a.id DESC LIMIT 1), d.delivered_at) AS delivered_at,
      coalesce((SELECT json_agg(json_build_object(
          'attempted_at', coalesce((a.private_detail->>'finished_at')::timestamptz, a.created_at),
          'status_code', coalesce((a.private_detail->>'status_code')::int, a.status_code),
          'duration_ms', coalesce((a.private_detail->>'duration_ms')::int, a.duration_ms),
          'error', coalesce(a.private_detail->>'error', a.error),
          'response_excerpt', coalesce(a.private_detail->>'response_excerpt', a.response_excerpt)) ORDER BY a.id)
        FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS attempt_log
    FROM webhook_deliveries d
    JOIN webhook_events e ON e.id = d.event_id
    JOIN webhook_endpoints w ON w.id = d.endpoint_id
    WHERE ${where}
    ORDER BY d.id DESC
    LIMIT ${o.page.limit} OFFSET ${o.page.offset}`);
  const { rows: count } = await db.execute<{ n: number }>(sql`
    SELECT count(*)::bigint AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE ${where}`);
  const total = Number(count[0].n);
  const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
  return {
    items: rows.map((r) => ({
      event_id: r.event_id,
      type: r.type,
      endpoint: r.kind,
      url: r.url,
      state: r.state,
      attempts: r.attempt_log,
      next_attempt_at: r.state === 'pending' ? iso(r.next_attempt_at) : null,
      delivered_at: iso(r.delivered_at),
      created_at: iso(r.created_at),
    })),
    total,
    page: o.page.page,
    limit: o.page.limit,
    pages: pageCount(total, o.page.limit),
  };
}
