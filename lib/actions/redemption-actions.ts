import { redeemCard, type Redemption } from '../redemptions/redeem-card';
import { confirmSpend } from '../spend-codes/confirm-spend';
import type { SpendCodeRequired } from '../spend-codes/request-spend-code';
import { spendCodeFormSchema } from './spend-code.validation';
import { toMinorUnits } from '../amount-text';
import { dryRun } from '../db/dry-run';
import { isLargeAmount, requireConfirmation } from './confirmation';
import { defineAction } from './define-action';
import { redeemFormSchema } from './redemption.validation';
import { runOnce } from './run-once';

/** Redeems a card at the counter from its page, as the signed-in user, once per form submission. */
export const redeemCardAction = defineAction({
  name: 'cards.redeem',
  permission: 'money:move',
  schema: redeemFormSchema,
  handler: async ({ db, session, input }) => {
    const amount = toMinorUnits(input.amount);
    const merchantReference = input.merchant_reference || undefined;
    const redeem = (on: typeof db) =>
      redeemCard(on, {
        businessId: session.businessId,
        mode: session.mode,
        actor: session.actor,
        cardNumber: input.card_number,
        amount,
        merchant_reference: merchantReference,
      });
    // Before asking for a yes, the redemption's own refusal (too little on the card), never after it.
    if (isLargeAmount(amount) && input.confirmed !== true) await dryRun(db, redeem);
    requireConfirmation(isLargeAmount(amount), input.confirmed);
    return runOnce<Redemption | SpendCodeRequired>(
      db,
      session,
      { action: 'cards.redeem', submissionId: input.submission_id, input: [input.card_number, amount, merchantReference ?? null] },
      () => redeem(db),
    );
  },
});

/** A redemption from the card's page over the business's code threshold, completed with the cardholder's code. */
export const confirmRedemptionAction = defineAction({
  name: 'cards.confirmRedemption',
  permission: 'money:move',
  schema: spendCodeFormSchema,
  handler: ({ db, session, input }) =>
    confirmSpend(db, { businessId: session.businessId, mode: session.mode, actor: session.actor, reference: input.confirmation_reference, code: input.code }),
});
