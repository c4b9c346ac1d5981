import { createPayment, type CreatedPayment } from '../payments/create-payment';
import { defineAction } from './define-action';
import { createPaymentFormSchema } from './payment.validation';
import { runOnce } from './run-once';

/** Starts a top-up payment (hosted link or direct wallet charge) as the signed-in user, once per submission. */
export const startPayment = defineAction({
  name: 'startPayment',
  permission: 'money:move',
  schema: createPaymentFormSchema,
  handler: async ({ db, session, input }) => {
    const { submission_id: submissionId, ...rest } = input;
    const request = {
      type: rest.type,
      amount: rest.amount,
      card_number: rest.card_number,
      ...(rest.merchant_reference && { merchant_reference: rest.merchant_reference }),
      ...(rest.type === 'direct-charge' && { phone_number: rest.phone_number, payment_method: rest.payment_method }),
    };
    return runOnce<CreatedPayment>(db, session, { action: 'startPayment', submissionId, input: request }, () =>
      createPayment(db, { businessId: session.businessId, mode: session.mode, actor: session.actor, input: request }),
    );
  },
});
