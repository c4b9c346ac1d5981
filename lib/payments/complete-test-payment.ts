import { z } from 'zod';
import type { Db } from '../db/client';
import { ServiceError } from '../errors';
import type { Actor } from '../actor';
import { parseInput, type Mode } from '../validation';
import { completePayment } from './complete-payment';
import { toPaymentRecord, type PaymentRecord } from './payment-view';

export const completeTestPaymentSchema = z.object({
  status: z.enum(['success', 'failed', 'cancelled'], { error: 'status must be success, failed or cancelled.' }),
});

export interface CompleteTestPaymentOptions {
  businessId: number;
  mode: Mode;
  linkReference: string;
  actor: Actor;
  input: unknown;
}

/** The test helper: finishes a pending payment as the processor would; a finished one is answered unchanged. */
export async function completeTestPayment(db: Db, opts: CompleteTestPaymentOptions): Promise<PaymentRecord> {
  if (opts.mode !== 'test') throw new ServiceError('not_found', 'Test helpers answer only to test keys.');
  const { status } = parseInput(completeTestPaymentSchema, opts.input);
  const { payment } = await completePayment(db, {
    linkReference: opts.linkReference,
    outcome: status,
    actor: opts.actor,
    businessId: opts.businessId,
    mode: opts.mode,
  });
  return toPaymentRecord(payment);
}
