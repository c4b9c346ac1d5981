import { z } from 'zod';
import type { Db } from '../db/client';
import { ServiceError } from '../errors';
import type { Actor } from '../actor';
import { parseInput, type Mode } from '../validation';
import { FAILURE_REASONS } from '../providers/failure-reasons';
import { requirePayout, toPayoutStatus } from './payout-view';
import { settlePayout } from './settle-payout';

export interface SettlePayoutAsProviderOptions {
  businessId: number;
  mode: Mode;
  reference: string;
  actor: Actor;
  input: unknown;
}

export const settleSchema = z.object({
  status: z.enum(['success', 'failed'], { error: 'status must be success or failed.' }),
});

/** The test helper: plays the provider's status update; a settled payout is answered unchanged. */
export async function settlePayoutAsProvider(db: Db, opts: SettlePayoutAsProviderOptions) {
  if (opts.mode !== 'test') throw new ServiceError('not_found', 'Test helpers exist for test keys only.');
  const { status } = parseInput(settleSchema, opts.input);
  const payout = await requirePayout(db, opts.businessId, opts.mode, opts.reference);
  const settled =
    payout.status === 'pending'
      ? await settlePayout(db, { payoutId: payout.id, outcome: status, actor: opts.actor, failureReason: FAILURE_REASONS.providerReported })
      : payout;
  return toPayoutStatus(settled, settled.reference);
}
