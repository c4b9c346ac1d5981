import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { counterIncrement } from '../db/list-counters';
import { compiledOnce, runCompiled } from '../db/prepared';
import { randomBase62 } from '../ids';
import type { EventType } from './payloads';

export interface EnqueueEventOptions {
  businessId: number;
  mode: string;
  type: EventType;
  payload: Record<string, unknown>;
  /** The payout or payment reference the event is about. */
  subjectReference: string;
}

/**
 * Writes an event and one delivery per active endpoint of the business and
 * mode, inside the caller's transaction: the event exists exactly when the
 * money movement it announces committed.
 */
export async function enqueueEvent(tx: Tx, opts: EnqueueEventOptions): Promise<string> {
  const values = eventValues(opts);
  await runCompiled(tx, eventStatement(), values);
  return values.eventId;
}

const eventStatement = compiledOnce(() => sql`WITH ${eventCtes()} SELECT 1`);

/** The values of eventCtes' placeholders, with a new event id. */
export function eventValues(opts: EnqueueEventOptions) {
  return {
    eventId: `msg_${randomBase62(24)}`,
    businessId: opts.businessId,
    mode: opts.mode,
    eventType: opts.type,
    eventBody: JSON.stringify(opts.payload),
    subjectReference: opts.subjectReference,
  };
}

const P = sql.placeholder;

/**
 * The same writes as CTEs for a statement that carries them with its own
 * (named event, event_counted, event_deliveries); with `onlyIf`, only when
 * that CTE (of at most one row) has its row. Its placeholders take eventValues.
 */
export function eventCtes(onlyIf?: string): SQL {
  return eventsCtes((name) => P(name), onlyIf ? sql`FROM ${sql.identifier(onlyIf)}` : sql``);
}

/**
 * eventCtes for any number of events of one business and mode: `from` (a FROM
 * clause, with any ORDER BY) gives a row per event, whose eventValues' fields
 * `v` names; events and deliveries are written in its order.
 */
export function eventsCtes(v: (name: string) => SQL | unknown, from: SQL): SQL {
  return sql`
    event AS (
      INSERT INTO webhook_events (event_id, business_id, mode, type, body, subject_reference)
      SELECT ${v('eventId')}, ${v('businessId')}, ${v('mode')}, ${v('eventType')}, ${v('eventBody')}, ${v('subjectReference')}
      ${from}
      RETURNING id
    ), event_counted AS (
      ${counterIncrement('events', 'event')}
    ), event_deliveries AS (
      -- An endpoint disabled by a 410 gets its delivery as failed, so a replay of the period reaches it once registered again.
      INSERT INTO webhook_deliveries (event_id, endpoint_id, state)
      SELECT event.id, w.id, CASE WHEN w.disabled_at IS NULL THEN 'pending' ELSE 'failed' END FROM event, webhook_endpoints w
      WHERE w.business_id = ${v('businessId')} AND w.mode = ${v('mode')}
      ORDER BY event.id, w.id
    )`;
}
