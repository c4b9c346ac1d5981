import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { readCounter } from '../db/list-counters';
import { pageCount, type PageRequest } from '../pagination';
import { parseInput, type Mode } from '../validation';

/** Every event type the outbox holds: the events list's filter and its OpenAPI schema. */
export const EVENT_TYPES = [
  'payment.success',
  'payment.failed',
  'payment.cancelled',
  'payment.refunded',
  'payment.refund_failed',
  'payout.success',
  'payout.failed',
  'card.redeemed',
  'hold.created',
  'hold.captured',
  'hold.voided',
  'hold.expired',
  'card.expired',
  'message.sent',
  'message.failed',
  'order.paid',
] as const;

export const filtersSchema = z.object({
  type: z.enum(EVENT_TYPES, { error: `type must be one of ${EVENT_TYPES.join(', ')}.` }).optional(),
  undelivered: z.enum(['true', 'false'], { error: 'undelivered must be true or false.' }).optional(),
});

export interface ListEventsOptions {
  businessId: number;
  mode: Mode;
  page: PageRequest;
  /** Raw query values: type, undelivered. */
  filters: { type?: string | null; undelivered?: string | null };
}

/**
 * The business's events, newest first, with the state of their delivery to
 * the business's own URL ("none" when no URL was registered at the time):
 * a receiver that was down catches up from here instead of waiting for retries.
 */
export async function listEvents(db: Db, o: ListEventsOptions) {
  const raw = Object.fromEntries(Object.entries(o.filters).filter(([, v]) => v !== null && v !== undefined && v !== ''));
  const f = parseInput(filtersSchema, raw);
  const undelivered = f.undelivered === 'true';
  const where = sql`e.business_id = ${o.businessId} AND e.mode = ${o.mode}
    ${f.type ? sql`AND e.type = ${f.type}` : sql``}
    ${
      undelivered
        ? sql`AND NOT EXISTS (
      SELECT 1 FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
      WHERE d.event_id = e.id AND w.kind = 'business' AND d.state = 'delivered')`
        : sql``
    }`;
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT e.event_id, e.type, e.created_at, e.body, d.state, d.attempts, d.last_attempt_at, d.delivered_at
    FROM webhook_events e
    LEFT JOIN LATERAL (
      SELECT d.state, d.attempts, d.last_attempt_at, d.delivered_at
      FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
      WHERE d.event_id = e.id AND w.kind = 'business'
      ORDER BY d.id DESC LIMIT 1
    ) d ON true
    WHERE ${where}
    ORDER BY e.created_at DESC, e.id DESC
    LIMIT ${o.page.limit} OFFSET ${o.page.offset}`);
  const total =
    f.type || undelivered
      ? Number((await db.execute<{ n: number }>(sql`SELECT count(*)::bigint AS n FROM webhook_events e WHERE ${where}`)).rows[0].n)
      : await readCounter(db, o.businessId, o.mode, 'events');
  const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : undefined);
  return {
    items: rows.map((r) => ({
      id: r.event_id as string,
      type: r.type as string,
      created_at: iso(r.created_at),
      payload: JSON.parse(r.body as string),
      delivery: r.state
        ? {
            state: r.state as string,
            attempts: Number(r.attempts),
            ...(r.last_attempt_at ? { last_attempt_at: iso(r.last_attempt_at) } : {}),
            ...(r.delivered_at ? { delivered_at: iso(r.delivered_at) } : {}),
          }
        : { state: 'none', attempts: 0 },
    })),
    total,
    page: o.page.page,
    limit: o.page.limit,
    pages: pageCount(total, o.page.limit),
  };
}
