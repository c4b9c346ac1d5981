import { cache } from 'react';
import type { Db } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors';
import { openShop, type OpenShop } from '@/lib/shop/shop-settings';

/** The open shop at a slug, read once per request (the title and the page both ask), or null when off or unknown. */
export const shopOf = cache(async (db: Db, slug: string): Promise<OpenShop | null> => {
  try {
    return await openShop(db, slug);
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'not_found') return null;
    throw err;
  }
});
