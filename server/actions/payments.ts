'use server';

import * as defs from '@/lib/actions/payment-actions';
import { runAction } from '@/server/run-action';

export async function startPayment(input: unknown) {
  return runAction(defs.startPayment, input);
}

export async function lookupPaymentCard(input: unknown) {
  return runAction(defs.lookupPaymentCard, input);
}
