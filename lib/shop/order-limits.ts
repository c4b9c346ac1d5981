import { positiveEnv } from '../config';
import type { Db } from '../db/client';
import { SharedBuckets } from '../rate-limits/shared-buckets';
import { RateLimitedError } from '../rate-limits/token-buckets';

const shared = globalThis as { __shopOrderBuckets?: { perAddress: SharedBuckets; perRecipient: SharedBuckets; reads: SharedBuckets } };

/** Per address (SHOP_ORDERS_PER_ADDRESS per 10 minutes, default 20) and per recipient phone (SHOP_ORDERS_PER_RECIPIENT per hour, default 5). */
function buckets() {
  if (!shared.__shopOrderBuckets) {
    const perAddress = positiveEnv('SHOP_ORDERS_PER_ADDRESS', 20);
    const perRecipient = positiveEnv('SHOP_ORDERS_PER_RECIPIENT', 5);
    const reads = positiveEnv('SHOP_ORDER_READS_PER_MINUTE', 120);
    shared.__shopOrderBuckets = {
      perAddress: new SharedBuckets('shop-address', { perSecond: perAddress / 600, burst: perAddress, lease: 1 }),
      perRecipient: new SharedBuckets('shop-recipient', { perSecond: perRecipient / 3600, burst: perRecipient, lease: 1 }),
      // Reads of an order's status: enough for a page that checks back, too few to guess references.
      reads: new SharedBuckets('shop-reads', { perSecond: reads / 60, burst: reads, lease: 1 }),
    };
  }
  return shared.__shopOrderBuckets;
}

export async function takeOrderFromAddress(db: Db, address: string): Promise<void> {
  const taken = await buckets().perAddress.take(db, address);
  if (!taken.ok) throw new RateLimitedError(taken.retryAfterSeconds, `Too many orders from this address; retry after ${taken.retryAfterSeconds} s.`);
}

export async function takeOrderForRecipient(db: Db, businessId: number, phone: string): Promise<void> {
  const taken = await buckets().perRecipient.take(db, `${businessId}:${phone}`);
  if (!taken.ok) throw new RateLimitedError(taken.retryAfterSeconds, `Too many orders for this recipient; retry after ${taken.retryAfterSeconds} s.`);
}

export async function takeOrderRead(db: Db, address: string): Promise<void> {
  const taken = await buckets().reads.take(db, address);
  if (!taken.ok) throw new RateLimitedError(taken.retryAfterSeconds, `Too many order lookups from this address; retry after ${taken.retryAfterSeconds} s.`);
}
