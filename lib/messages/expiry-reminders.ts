import { sql } from 'drizzle-orm';
import { backgroundLoop, type Stop } from '../background-loop';
import type { Db } from '../db/client';
import { queueCardMessages } from './queue-message';

const BATCH = 500;

/**
 * One pass: each card whose messages are on and that expires within the next `days` days but not within `days - 1`
 * gets its reminder, once per card, expiry date and channel (the dedupe key), however often the pass runs. A card
 * issued with less time left gets no reminder it would misread. True when a full batch was queued (more may be due).
 */
export async function queueExpiryReminders(db: Db, days: 30 | 7): Promise<boolean> {
  const kind = days === 30 ? 'expiry_30_days' : 'expiry_7_days';
  const { rows } = await db.execute<{ id: string; expires_at: string }>(sql`
    SELECT c.id, (extract(epoch FROM c.expires_at) * 1000)::bigint::text AS expires_at FROM cards c
     WHERE c.expires_at > now() + make_interval(days => ${days - 1}) AND c.expires_at <= now() + make_interval(days => ${days})
       AND c.expired_at IS NULL AND c.cancelled_at IS NULL AND c.messages_on
       AND NOT EXISTS (SELECT 1 FROM cardholder_messages m, LATERAL (SELECT ${kind} || ':' || c.id || ':' || (extract(epoch FROM c.expires_at) * 1000)::bigint AS key) k
                        WHERE m.dedupe_key IN (k.key || ':sms', k.key || ':email'))
     ORDER BY c.expires_at LIMIT ${BATCH}`);
  for (const card of rows) {
    await queueCardMessages(db, sql`SELECT ${Number(card.id)}::bigint, '{}'::jsonb`, {
      kind,
      dedupeKey: `${kind}:${card.id}:${card.expires_at}`,
    });
  }
  return rows.length === BATCH;
}

const everyMs = () => Number(process.env.EXPIRY_REMINDER_SWEEP_MS) || 600_000;

export const startExpiryReminders = (db: Db): Stop =>
  backgroundLoop('expiry reminders', everyMs(), async () => {
    const more30 = await queueExpiryReminders(db, 30);
    const more7 = await queueExpiryReminders(db, 7);
    return more30 || more7;
  });
