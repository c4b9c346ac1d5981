'use server';

import * as defs from '@/lib/actions/account-actions';
import { runAction } from '@/server/run-action';

export async function changePassword(input: unknown) {
  return runAction(defs.changePassword, input);
}

export async function confirmTwoFactor(input: unknown) {
  return runAction(defs.confirmTwoFactor, input);
}

export async function disableTwoFactor(input: unknown) {
  return runAction(defs.disableTwoFactor, input);
}

export async function updatePreferences(input: unknown) {
  return runAction(defs.updatePreferences, input);
}
