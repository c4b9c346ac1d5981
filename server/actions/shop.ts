'use server';

import * as defs from '@/lib/actions/shop-actions';
import { runAction } from '@/server/run-action';

export async function updateShop(input: unknown) {
  return runAction(defs.updateShop, input);
}
