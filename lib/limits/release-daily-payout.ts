import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

export interface ReleaseDailyPayoutOptions {
  businessId: number;
  mode: string;
  currency: string;
  amount: number;
  createdAt: Date;
}

/** A payout from a card that failed gives its amount back to the total of the business day it was made on. */
export async function releaseDailyPayout(tx: DbOrTx, p: ReleaseDailyPayoutOptions): Promise<void> {
  await tx.execute(sql`
    UPDATE payout_day_totals t SET total = greatest(t.total - ${p.amount}, 0)
    FROM businesses b
    WHERE b.id = ${p.businessId} AND t.business_id = b.id AND t.mode = ${p.mode} AND t.currency = ${p.currency}
      AND t.day = (${p.createdAt.toISOString()}::timestamptz AT TIME ZONE b.time_zone)::date`);
}
