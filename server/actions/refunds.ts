'use server';

import * as defs from '@/lib/actions/refund-actions';
import { runAction } from '@/server/run-action';

export async function refundPayment(input: unknown) {
  return runAction(defs.refundPaymentAction, input);
}
