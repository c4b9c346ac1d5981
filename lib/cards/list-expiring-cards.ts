import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import type { Mode } from '../validation';
import { type CardRow, selectCards } from './card-view';

export const EXPIRING_WITHIN_DAYS = 30;
const LIMIT = 200;

/** The business's cards that expire within the next 30 days, soonest first (at most 200: the list is for acting on, not a report). */
export async function listExpiringCards(db: DbOrTx, businessId: number, mode: Mode): Promise<CardRow[]> {
  return selectCards(
    db,
    sql`c.business_id = ${businessId} AND c.mode = ${mode} AND c.expires_at IS NOT NULL AND c.expired_at IS NULL AND c.cancelled_at IS NULL
        AND c.expires_at < now() + make_interval(days => ${EXPIRING_WITHIN_DAYS})`,
    sql`ORDER BY c.expires_at, c.id LIMIT ${LIMIT}`,
  );
}
