import type { DbOrTx } from '../db/client';
import type { Mode } from '../validation';
import { requirePayout, toPayoutStatus } from './payout-view';

export interface GetPayoutStatusOptions {
  businessId: number;
  mode: Mode;
  reference: string;
}

/** By initiator or provider reference: both are the payout's one stored reference. */
export async function getPayoutStatus(db: DbOrTx, opts: GetPayoutStatusOptions) {
  const payout = await requirePayout(db, opts.businessId, opts.mode, opts.reference);
  return toPayoutStatus(payout, payout.reference);
}
