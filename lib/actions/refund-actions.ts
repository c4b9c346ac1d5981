import { type DashboardRefundResult, refundFromDashboard } from '../approvals/dashboard-refund';
import { toMinorUnits } from '../amount-text';
import { defineAction } from './define-action';
import { refundFormSchema } from './refund.validation';
import { runOnce } from './run-once';

/** Refunds a paid top-up from its page, as the signed-in user, once per submission; at or above the approval threshold it waits for a second person. */
export const refundPaymentAction = defineAction({
  name: 'refundPayment',
  changesWaitingApprovals: true,
  permission: 'payments:refund',
  schema: refundFormSchema,
  handler: async ({ db, session, input }) => {
    const { submission_id: submissionId, amount, ...rest } = input;
    const request = { ...rest, amount: toMinorUnits(amount) };
    return runOnce<DashboardRefundResult>(db, session, { action: 'refundPayment', submissionId, input: request }, () =>
      refundFromDashboard(db, { businessId: session.businessId, mode: session.mode, userId: session.userId, ...request }),
    );
  },
});
