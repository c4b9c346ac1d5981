import { z } from 'zod';
import { parseInput } from '../validation';
import { requestAdjustment } from '../approvals/request-adjustment';
import { setApprovalThreshold } from '../approvals/approval-thresholds';
import { approveRequest, rejectRequest } from '../approvals/decide-approval';
import { amountText } from './amount.validation';
import { adjustmentFormSchema, decideApprovalSchema, thresholdFormSchema } from './approval.validation';
import { defineAction } from './define-action';
import { runOnce } from './run-once';

const scope = (s: { businessId: number; mode: 'test' | 'live'; userId: number }) => ({ businessId: s.businessId, mode: s.mode, userId: s.userId });

/** Approves a teammate's request: the payout or adjustment runs now, or fails with its reason. */
export const approveApproval = defineAction({
  name: 'approvals.approve',
  changesWaitingApprovals: true,
  permission: 'money:approve',
  schema: decideApprovalSchema,
  handler: ({ db, session, input }) => approveRequest(db, { ...scope(session), reference: input.reference, note: input.note }),
});

/** Rejects a teammate's request: its held money is released. */
export const rejectApproval = defineAction({
  name: 'approvals.reject',
  changesWaitingApprovals: true,
  permission: 'money:approve',
  schema: decideApprovalSchema,
  handler: ({ db, session, input }) => rejectRequest(db, { ...scope(session), reference: input.reference, note: input.note, asMaker: false }),
});

/** The maker withdraws their own request before anyone decides it. */
export const withdrawApproval = defineAction({
  name: 'approvals.withdraw',
  changesWaitingApprovals: true,
  // Every role may try: only the request's own maker can claim it (finance's refunds wait too, and finance moves no other money).
  permission: 'account',
  schema: decideApprovalSchema,
  handler: ({ db, session, input }) => rejectRequest(db, { ...scope(session), reference: input.reference, note: input.note, asMaker: true }),
});

/** Asks for a manual adjustment of a card's balance; it always waits for a second person. */
export const requestAdjustmentAction = defineAction({
  name: 'approvals.request_adjustment',
  changesWaitingApprovals: true,
  permission: 'money:move',
  schema: adjustmentFormSchema,
  handler: async ({ db, session, input }) =>
    runOnce(db, session, { action: 'approvals.request_adjustment', submissionId: input.submission_id, input: { ...input, submission_id: undefined } }, () =>
      requestAdjustment(db, {
        ...scope(session),
        cardNumber: input.card_number,
        direction: input.direction,
        amount: input.amount,
        reasonCode: input.reason_code,
        note: input.note,
      }),
    ),
});

/** The owner sets or removes the approval threshold of one currency. */
export const setThresholdAction = defineAction({
  name: 'approvals.set_threshold',
  permission: 'team',
  schema: thresholdFormSchema,
  handler: async ({ db, session, input }) => {
    const amount = input.amount === '' ? null : parseInput(z.object({ amount: amountText }), { amount: input.amount }).amount;
    await setApprovalThreshold(db, { ...scope(session), currency: input.currency, amount });
    return { currency: input.currency, amount };
  },
});
