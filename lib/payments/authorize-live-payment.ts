import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { payments } from '../db/schema';
import { ServiceError } from '../errors';
import { LIVE_NOT_CONFIGURED } from '../providers/provider-port';
import { providerFor } from '../providers/provider-registry';
import { parseInput, type Mode } from '../validation';
import { toPaymentRecord, type PaymentRecord } from './payment-view';
import { requestLiveVerify } from './verify-live-payment';

export const authorizePaymentSchema = z.object({
  otp: z
    .string({ error: (iss) => (iss.input === undefined ? 'otp is required.' : 'otp must be a string.') })
    .trim()
    .regex(/^\d{4,8}$/, { error: 'otp must be the 4 to 8 digits the customer received.' }),
});

export interface AuthorizePaymentOptions {
  businessId: number;
  mode: Mode;
  linkReference: string;
  input: unknown;
}

/**
 * The authorize step of a live direct charge whose wallet asked for an OTP
 * (next_action.type = otp): the code goes to Chapa encrypted, then verify
 * decides, as for every live payment. The answer is the payment as it stands.
 */
export async function authorizeLivePayment(db: Db, opts: AuthorizePaymentOptions): Promise<PaymentRecord> {
  const { otp } = parseInput(authorizePaymentSchema, opts.input);
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.linkReference, opts.linkReference), eq(payments.businessId, opts.businessId), eq(payments.mode, opts.mode)));
  if (!payment) throw new ServiceError('payment_not_found', 'No payment with this link_reference belongs to your business.');
  if (payment.mode !== 'live' || payment.type !== 'direct-charge' || payment.providerNextAction !== 'otp') {
    throw new ServiceError('invalid_request', 'Only a live direct charge waiting for the customer’s one-time code can be authorized.');
  }
  if (payment.status !== 'pending') throw new ServiceError('invalid_request', `The payment has already finished (${payment.status}).`);
  const checkout = providerFor('live')?.checkout;
  if (!checkout) throw new ServiceError('payment_request_failed', `${LIVE_NOT_CONFIGURED} The code was not sent.`);
  const sent = await checkout.authorizeDirectCharge({
    providerReference: payment.providerReference ?? payment.linkReference,
    requestId: payment.providerRequestId,
    paymentMethod: payment.paymentMethod ?? '',
    otp,
  });
  if (sent.kind === 'refused')
    throw new ServiceError('invalid_request', `Chapa refused the code: ${sent.message}. The payment is still waiting for the right one.`);
  if (sent.kind === 'unknown') {
    throw new ServiceError('payment_request_failed', `Chapa did not answer (${sent.reason}); the payment stays pending until Chapa's verify settles it.`);
  }
  await requestLiveVerify(db, payment.linkReference);
  const [now] = await db.select().from(payments).where(eq(payments.id, payment.id));
  return toPaymentRecord(now);
}
