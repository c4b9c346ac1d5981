import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { ServiceError } from '../errors';
import { modeSchema, parseInput, type Mode } from '../validation';

// A pending delivery whose last claim is older than any lease is only waiting for its retry; a newer one may be in flight.
const IN_FLIGHT_WINDOW = sql`interval '1 minute'`;

/** Sets deliveries to go out again now with a fresh retry schedule; never one that may be in flight. */
const requeue = (where: ReturnType<typeof sql>) => sql`
  UPDATE webhook_deliveries d
  SET state = 'pending', attempts = 0, next_attempt_at = now(), delivered_at = NULL
  FROM webhook_endpoints w
  WHERE w.id = d.endpoint_id AND w.disabled_at IS NULL AND (${where})
    AND (d.state <> 'pending' OR d.last_attempt_at IS NULL OR d.last_attempt_at < now() - ${IN_FLIGHT_WINDOW})
  RETURNING d.id`;

export interface ReplayEventOptions {
  businessId: number;
  mode: Mode;
  /** The event's webhook-id. */
  eventId: string;
}

/** Sends one event again to every active endpoint it went to, whatever happened before. */
async function replayEvent(db: Db, o: ReplayEventOptions): Promise<{ event_id: string; deliveries: number }> {
  const { rows: events } = await db.execute<{ id: number }>(sql`
    SELECT id FROM webhook_events WHERE event_id = ${o.eventId} AND business_id = ${o.businessId} AND mode = ${o.mode}`);
  if (!events[0]) throw new ServiceError('not_found', 'No event has this id.');
  const { rows } = await db.execute(requeue(sql`d.event_id = ${events[0].id}`));
  return { event_id: o.eventId, deliveries: rows.length };
}

/** What a replay did to the delivery to the business's own endpoint, the one the delivery log shows. */
export type ReplayVerdict =
  | { state: 'queued' }
  /** Not requeued: the last attempt may still be under way; a replay is accepted again after waitSeconds. */
  | { state: 'in_flight'; lastAttemptSecondsAgo: number; waitSeconds: number }
  /** The endpoint answered 410 Gone and is turned off until its URL is set again. */
  | { state: 'endpoint_disabled' }
  /** The business had no endpoint when the event was created, so there is no delivery to send. */
  | { state: 'no_endpoint' };

const IN_FLIGHT_SECONDS = 60;

/**
 * replayEvent, plus a verdict about the business endpoint's delivery, so the
 * dashboard says exactly what happened: queued, or why not and until when.
 */
export async function replayEventWithVerdict(db: Db, o: ReplayEventOptions): Promise<{ event_id: string; deliveries: number; verdict: ReplayVerdict }> {
  const { rows: events } = await db.execute<{ id: number }>(sql`
    SELECT id FROM webhook_events WHERE event_id = ${o.eventId} AND business_id = ${o.businessId} AND mode = ${o.mode}`);
  if (!events[0]) throw new ServiceError('not_found', 'No event has this id.');
  const { rows: before } = await db.execute<{ id: number; disabled: boolean; ago: number | null }>(sql`
    SELECT d.id, w.disabled_at IS NOT NULL AS disabled, floor(extract(epoch FROM now() - d.last_attempt_at))::int AS ago
    FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
    WHERE d.event_id = ${events[0].id} AND w.kind = 'business' AND w.business_id = ${o.businessId}`);
  const { rows } = await db.execute<{ id: number }>(requeue(sql`d.event_id = ${events[0].id}`));
  const delivery = before[0];
  let verdict: ReplayVerdict;
  if (!delivery) verdict = { state: 'no_endpoint' };
  else if (rows.some((r) => Number(r.id) === Number(delivery.id))) verdict = { state: 'queued' };
  else if (delivery.disabled) verdict = { state: 'endpoint_disabled' };
  else {
    const ago = Math.max(0, Number(delivery.ago ?? 0));
    verdict = { state: 'in_flight', lastAttemptSecondsAgo: ago, waitSeconds: Math.max(1, IN_FLIGHT_SECONDS - ago) };
  }
  return { event_id: o.eventId, deliveries: rows.length, verdict };
}

/** The verdict in the words the dashboard shows. */
export function replayVerdictText(v: ReplayVerdict): string {
  switch (v.state) {
    case 'queued':
      return 'Queued: it will be sent within a few seconds.';
    case 'in_flight':
      return `Not sent: the last attempt started ${v.lastAttemptSecondsAgo < 2 ? 'moments' : seconds(v.lastAttemptSecondsAgo)} ago and may still be under way; you can replay again in ${seconds(v.waitSeconds)}.`;
    case 'endpoint_disabled':
      return 'Not sent: your webhook URL is turned off because it answered 410 Gone. Save the URL again above to turn it back on, then replay.';
    case 'no_endpoint':
      return 'Not sent: there was no webhook URL when this event happened, so it has nowhere to go.';
  }
}

const seconds = (n: number) => (n === 1 ? '1 second' : `${n} seconds`);

export const replayFailedSchema = z
  .object({
    mode: modeSchema,
    from: z.iso.datetime({ offset: true, error: 'from must be an ISO 8601 date-time.' }),
    to: z.iso.datetime({ offset: true, error: 'to must be an ISO 8601 date-time.' }),
  })
  .refine((v) => Date.parse(v.from) < Date.parse(v.to), { path: ['to'], error: 'to must be after from.' });

/** Sends again every delivery that failed for good among the events created in [from, to). */
export async function replayFailedEvents(db: Db, businessId: number, input: unknown): Promise<{ mode: Mode; from: string; to: string; deliveries: number }> {
  const { mode, from, to } = parseInput(replayFailedSchema, input);
  const { rows } = await db.execute(
    requeue(sql`d.state = 'failed' AND d.event_id IN (
      SELECT id FROM webhook_events
      WHERE business_id = ${businessId} AND mode = ${mode} AND created_at >= ${from}::timestamptz AND created_at < ${to}::timestamptz)`),
  );
  return { mode, from: new Date(from).toISOString(), to: new Date(to).toISOString(), deliveries: rows.length };
}

export const replayOneSchema = z.object({ mode: modeSchema, event_id: z.string({ error: 'event_id must be a string.' }).min(1).max(255) });

/** The back office's replay: `{mode, event_id}` for one event, `{mode, from, to}` for every failed one of a period. */
export async function replayWebhooks(db: Db, businessId: number, input: unknown) {
  if (input && typeof input === 'object' && 'event_id' in input) {
    const { mode, event_id } = parseInput(replayOneSchema, input);
    return { mode, ...(await replayEvent(db, { businessId, mode, eventId: event_id })) };
  }
  return replayFailedEvents(db, businessId, input);
}
