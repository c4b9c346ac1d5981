import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Mode } from '../validation';
import { headersAsShown } from '../webhooks/signing';

/** As stored for the business: for a non-public address, only whether it worked (see attemptRow). */
export interface DeliveryAttempt {
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

export interface DeliveryLogEntry {
  eventId: string;
  type: string;
  /** The exact JSON body sent. */
  payload: string;
  /** The headers of the latest attempt (or of the first, before any), signatures hidden. */
  headers: { name: string; value: string }[];
  /** What the event is about and its dashboard page: a hold, a redemption or an expiry is shown on its card's page. */
  subject: { label: string; reference: string; href: string };
  url: string;
  state: string;
  createdAt: string;
  nextAttemptAt: string | null;
  attempts: DeliveryAttempt[];
}

export interface ListDeliveryLogOptions {
  businessId: number;
  mode: Mode;
  page: number;
  limit: number;
}

const CARD_SUBJECTS: Record<string, string> = { hold: 'Hold', card: 'Card' };

function subjectOf(type: string, reference: string, body: string): DeliveryLogEntry['subject'] {
  const family = type.split('.')[0];
  if (family === 'payment' || family === 'payout') {
    return { label: family === 'payment' ? 'Payment' : 'Payout', reference, href: `/${family}s/${encodeURIComponent(reference)}` };
  }
  const card = (JSON.parse(body) as { card_number?: unknown }).card_number;
  const label = type === 'card.redeemed' ? 'Redemption' : (CARD_SUBJECTS[family] ?? 'Event');
  return { label, reference, href: typeof card === 'string' ? `/cards/${encodeURIComponent(card)}` : '/developers' };
}

/**
 * Deliveries to the business's own endpoint (not the dashboard's copy),
 * newest event first along the events list index; one row more than asked
 * tells whether there is a next page without counting them all.
 */
export async function listDeliveryLog(db: Db, o: ListDeliveryLogOptions): Promise<{ items: DeliveryLogEntry[]; hasNext: boolean }> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT e.event_id, e.type, e.body, e.subject_reference, e.created_at, w.url, d.state,
      -- After an attempt to a non-public address, the retry as counted from the attempt's start: the real one moves with the receiver's reply time.
      d.next_attempt_at, (SELECT round(extract(epoch FROM d.next_attempt_at - (a.private_detail->>'finished_at')::timestamptz) * 1000) FROM webhook_attempts a
        WHERE a.delivery_id = d.id AND a.created_at = d.last_attempt_at ORDER BY a.id DESC LIMIT 1) AS retry_in_ms,
      w.previous_secret IS NOT NULL AND w.previous_secret_expires_at > now() AS rotating,
      coalesce((SELECT json_agg(json_build_object(
          'attemptedAt', a.created_at, 'statusCode', a.status_code, 'durationMs', a.duration_ms,
          'error', a.error, 'responseExcerpt', left(a.response_excerpt, 300)) ORDER BY a.id DESC)
        FROM (SELECT * FROM webhook_attempts WHERE delivery_id = d.id ORDER BY id DESC LIMIT 10) a), '[]') AS attempt_log
    FROM webhook_events e
    JOIN webhook_deliveries d ON d.event_id = e.id
    JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.kind = 'business'
    WHERE e.business_id = ${o.businessId} AND e.mode = ${o.mode} AND w.business_id = ${o.businessId}
    ORDER BY e.created_at DESC, e.id DESC, d.id DESC
    LIMIT ${o.limit + 1} OFFSET ${(o.page - 1) * o.limit}`);
  const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
  return {
    hasNext: rows.length > o.limit,
    items: rows.slice(0, o.limit).map((r) => {
      const attempts = (r.attempt_log as DeliveryAttempt[]).map((a) => ({ ...a, attemptedAt: iso(a.attemptedAt)! }));
      const reference = String(r.subject_reference);
      const sentAt = Date.parse(attempts[0]?.attemptedAt ?? iso(r.created_at)!);
      return {
        eventId: String(r.event_id),
        type: String(r.type),
        payload: String(r.body),
        headers: headersAsShown(String(r.event_id), Math.floor(sentAt / 1000), r.rotating === true),
        subject: subjectOf(String(r.type), reference, String(r.body)),
        url: String(r.url),
        state: String(r.state),
        createdAt: iso(r.created_at)!,
        nextAttemptAt:
          r.state !== 'pending'
            ? null
            : r.retry_in_ms !== null && attempts[0]
              ? iso(Date.parse(attempts[0].attemptedAt) + Number(r.retry_in_ms))
              : iso(r.next_attempt_at),
        attempts,
      } satisfies DeliveryLogEntry;
    }),
  };
}
