import { refundPayment } from '../refunds/refund-payment';
import type { RefundRecord } from '../refunds/refund-view';
import { toMinorUnits } from './amount.validation';
import { defineAction } from './define-action';
import { refundFormSchema } from './refund.validation';
import { runOnce } from './run-once';

/** Refunds a paid top-up from its page, as the signed-in user, once per submission. Goes straight to the core (no approval yet). */
export const refundPaymentAction = defineAction({
  name: 'refundPayment',
  permission: 'payments:refund',
  schema: refundFormSchema,
  handler: async ({ db, session, input }) => {
    const { submission_id: submissionId, amount, ...rest } = input;
    const request = { ...rest, amount: toMinorUnits(amount) };
    return runOnce<RefundRecord>(db, session, { action: 'refundPayment', submissionId, input: request }, () =>
      refundPayment(db, { businessId: session.businessId, mode: session.mode, actor: session.actor, ...request }),
    );
  },
});
