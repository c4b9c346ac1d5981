import type { ApprovalRequested } from './approval-request';
import { requestApproval } from './request-approval';
import { requireOwnCard } from '../cards/get-card';
import type { Db } from '../db/client';
import { validationError } from '../errors';
import type { Mode } from '../validation';
import type { AdjustmentDirection, AdjustmentReason } from '../adjustments/adjustment-reasons';
import type { AdjustmentOptions } from '../adjustments/post-adjustment';

export interface RequestAdjustmentOptions {
  businessId: number;
  mode: Mode;
  userId: number;
  cardNumber: string;
  direction: AdjustmentDirection;
  amount: number;
  reasonCode: AdjustmentReason;
  note?: string | null;
}

/**
 * A manual adjustment of a card's balance against the business account. It
 * always waits for a second person: a decrease holds the card's money, an
 * increase the business account's, until the decision. A disabled card may be
 * adjusted (a fraud recovery usually is of one); a cancelled card may not.
 */
export async function requestAdjustment(db: Db, opts: RequestAdjustmentOptions): Promise<ApprovalRequested> {
  const note = opts.note?.trim() || null;
  if (opts.reasonCode === 'other' && !note) throw validationError('note', 'Say what the adjustment is for when the reason is Other.');
  const card = await requireOwnCard(db, opts.businessId, opts.mode, opts.cardNumber);
  const options: AdjustmentOptions = { direction: opts.direction, amount: opts.amount, reason_code: opts.reasonCode, note };
  return requestApproval(db, {
    businessId: opts.businessId,
    mode: opts.mode,
    makerUserId: opts.userId,
    kind: 'adjustment',
    card,
    amount: opts.amount,
    held: opts.amount,
    holdFrom: opts.direction === 'decrease' ? 'card' : 'business',
    options: { ...options },
    reasonCode: opts.reasonCode,
    note,
  });
}
