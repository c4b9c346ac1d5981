import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { ProviderBalances } from '../../providers/provider-records';
import type { ChapaConfig } from './config';
import { fetchBalances } from './transfers';

/**
 * Chapa's balances for a business's owner and finance staff. The Chapa account
 * is the whole service's: once another business has moved live money through
 * it, its balances would tell this business about that one's money, so they
 * are shown only while this business is the only one that has.
 */
export async function chapaBalancesFor(db: Db, config: ChapaConfig | null, businessId: number): Promise<ProviderBalances | null> {
  if (!config) return null;
  const others = await db.execute<{ shared: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM rail_requests WHERE business_id <> ${businessId} AND mode = 'live')
        OR EXISTS (SELECT 1 FROM payments WHERE business_id <> ${businessId} AND mode = 'live' AND verify_state IS NOT NULL) AS shared`);
  if (others.rows[0].shared) return { shown: false, why: 'shared' };
  const answer = await fetchBalances(config);
  if (!answer.ok) return { shown: false, why: 'unread', reason: answer.reason };
  return { shown: true, balances: answer.balances };
}
