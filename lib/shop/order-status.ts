import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { shopOrders } from '../db/schema';
import { ServiceError } from '../errors';
import { takeOrderRead } from './order-limits';
import { openShop } from './shop-settings';

const REFERENCE = /^ord_[0-9A-Za-z]{24}$/;

/** What whoever holds an order reference may know: its status, nothing about anyone. */
export async function shopOrderStatus(
  db: Db,
  { slug, reference, address }: { slug: string; reference: string; address: string },
): Promise<{ order_reference: string; status: 'pending' | 'paid' | 'failed' }> {
  const shop = await openShop(db, slug);
  // Limited per address, after the shop is found: a reference cannot be guessed by asking many times.
  await takeOrderRead(db, address);
  const [order] = REFERENCE.test(reference)
    ? await db
        .select({ status: shopOrders.status })
        .from(shopOrders)
        .where(and(eq(shopOrders.reference, reference), eq(shopOrders.businessId, shop.businessId), eq(shopOrders.mode, shop.mode)))
    : [];
  if (!order) throw new ServiceError('not_found', 'No order with this reference.');
  return { order_reference: reference, status: order.status };
}
