'use server';

import * as defs from '@/lib/actions/business-actions';
import { runAction } from '@/server/run-action';

export async function updateBusinessSettings(input: unknown) {
  return runAction(defs.updateBusinessSettings, input);
}

export async function updateCustomerLocale(input: unknown) {
  return runAction(defs.updateCustomerLocale, input);
}

export async function updateMessageKinds(input: unknown) {
  return runAction(defs.updateMessageKinds, input);
}
