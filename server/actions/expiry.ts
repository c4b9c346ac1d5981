'use server';

import * as defs from '@/lib/actions/expiry-actions';
import { runAction } from '@/server/run-action';

export async function setExpiryPolicy(input: unknown) {
  return runAction(defs.setExpiryPolicy, input);
}

export async function extendCardExpiry(input: unknown) {
  return runAction(defs.extendCardExpiry, input);
}
