'use server';

import * as defs from '@/lib/actions/limits-actions';
import { runAction } from '@/server/run-action';

export async function updateLimits(input: unknown) {
  return runAction(defs.updateLimits, input);
}
