import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Actor } from '../actor';
import type { Db } from '../db/client';
import { payments, refunds } from '../db/schema';
import { ServiceError } from '../errors';
import { parseInput } from '../validation';
import { toRefundRecord, type RefundRecord } from './refund-view';
import { settleRefund } from './settle-refund';

export const settleRefundByHandSchema = z.object({
  status: z.enum(['succeeded', 'failed'], { error: 'status must be succeeded or failed.' }),
  reason: z.string({ error: 'reason must be text.' }).trim().max(500, { error: 'reason must be at most 500 characters.' }).optional(),
});

export interface SettleRefundByHandOptions {
  reference: string;
  actor: Actor;
  input: unknown;
}

/**
 * The provider's staff end a live refund the worker holds for a person (a
 * resend Chapa refused for a reason other than a used reference), once they
 * have checked with Chapa: succeeded, or failed with the debit put back. A
 * refund that has already ended is answered as it is.
 */
export async function settleRefundByHand(db: Db, opts: SettleRefundByHandOptions): Promise<RefundRecord> {
  const { status, reason } = parseInput(settleRefundByHandSchema, opts.input);
  const [refund] = await db.select().from(refunds).where(eq(refunds.reference, opts.reference.trim()));
  if (!refund) throw new ServiceError('not_found', 'No refund with this reference.');
  if (refund.status === 'pending') {
    await settleRefund(db, {
      refundId: refund.id,
      outcome: status,
      actor: opts.actor,
      failureReason: reason || 'The provider’s staff found Chapa did not make the refund.',
    });
  }
  const [after] = await db.select().from(refunds).where(eq(refunds.id, refund.id));
  const [payment] = await db.select().from(payments).where(eq(payments.id, refund.paymentId));
  return toRefundRecord(after, payment);
}
