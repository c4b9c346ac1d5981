import { isLargeAmount, requireConfirmation } from './confirmation';
import { normaliseTypedPhone } from '../cards/phone';
import { createPayment, type CreatedPayment } from '../payments/create-payment';
import { defineAction } from './define-action';
import { ACTIVE } from '../cards/card-status';
import { requireOwnCard } from '../cards/get-card';
import type { Currency } from '../validation';
import { createPaymentFormSchema, paymentCardSchema } from './payment.validation';
import { runOnce } from './run-once';

/** Starts a top-up payment (hosted link or direct wallet charge) as the signed-in user, once per submission. */
export const startPayment = defineAction({
  name: 'startPayment',
  permission: 'money:move',
  schema: createPaymentFormSchema,
  handler: async ({ db, session, input }) => {
    const { submission_id: submissionId, confirmed, ...rest } = input;
    requireConfirmation(isLargeAmount(rest.amount), confirmed);
    const request = {
      type: rest.type,
      amount: rest.amount,
      card_number: rest.card_number,
      ...(rest.merchant_reference && { merchant_reference: rest.merchant_reference }),
      // A number typed as staff say it (0911 234 567) becomes E.164 with the business's country; the API takes E.164 only.
      ...(rest.type === 'direct-charge' && {
        phone_number: normaliseTypedPhone(rest.phone_number ?? '', session.country).e164,
        payment_method: rest.payment_method,
      }),
    };
    return runOnce<CreatedPayment>(db, session, { action: 'startPayment', submissionId, input: request }, () =>
      createPayment(db, { businessId: session.businessId, mode: session.mode, actor: session.actor, input: request }),
    );
  },
});

/** The card a new payment is for, as the form needs it: its currency (for the wallets that take it) and whether it can take money. */
export const lookupPaymentCard = defineAction({
  name: 'lookupPaymentCard',
  permission: 'money:move',
  schema: paymentCardSchema,
  handler: async ({ db, session, input }): Promise<{ currency: Currency; active: boolean; lastFour: string }> => {
    const card = await requireOwnCard(db, session.businessId, session.mode, input.card_number);
    return { currency: card.currency, active: card.status === ACTIVE, lastFour: card.card_number.slice(-4) };
  },
});
