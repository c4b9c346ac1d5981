'use server';

import * as defs from '@/lib/actions/redemption-actions';
import { runAction } from '@/server/run-action';

export async function redeemCard(input: unknown) {
  return runAction(defs.redeemCardAction, input);
}

export async function confirmRedemption(input: unknown) {
  return runAction(defs.confirmRedemptionAction, input);
}
