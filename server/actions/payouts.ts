'use server';

import * as defs from '@/lib/actions/payout-actions';
import { runAction } from '@/server/run-action';

export async function previewPayout(input: unknown) {
  return runAction(defs.previewPayout, input);
}

export async function lookupRecipient(input: unknown) {
  return runAction(defs.lookupRecipient, input);
}

export async function checkPayout(input: unknown) {
  return runAction(defs.checkPayout, input);
}

export async function sendPayout(input: unknown) {
  return runAction(defs.sendPayout, input);
}
