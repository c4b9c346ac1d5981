import { ServiceError } from '../errors';
import { requireOwnCard } from '../cards/get-card';
import { ACTIVE } from '../cards/card-status';
import { feeRuleFor, computeFee } from '../fees/fee-schedule';
import { createPayout, splitAmounts } from '../payouts/create-payout';
import { defineAction } from './define-action';
import { previewPayoutSchema, sendPayoutSchema, toPayoutRequest } from './payout.validation';
import { runOnce } from './run-once';

export interface PayoutPreview {
  currency: string;
  balance: number;
  amount: number;
  fee: number;
  chargePayer: string;
  /** What the source card loses and what the destination gets. */
  debit: number;
  credit: number;
  sufficient: boolean;
}

/** The live fee preview of the send-payout form: the business's own fee schedule, the same arithmetic as the payout. */
export const previewPayout = defineAction({
  name: 'previewPayout',
  permission: 'money:move',
  schema: previewPayoutSchema,
  handler: async ({ db, session, input }): Promise<PayoutPreview> => {
    const card = await requireOwnCard(db, session.businessId, session.mode, input.card_number);
    if (card.status !== ACTIVE) throw new ServiceError('card_disabled', 'The source gift card is disabled and cannot pay out.');
    const fee = computeFee(await feeRuleFor(db, session.businessId, session.mode, input.destination_type), input.amount);
    const feeFromAmount = input.charge_payer === (input.destination_type === 'card_to_card' ? 'receiver' : 'business');
    if (feeFromAmount && input.amount <= fee) {
      throw new ServiceError('validation_error', {
        amount: `The amount must be greater than the service fee of ${fee} minor units when the ${input.charge_payer} pays it.`,
      });
    }
    const { debit, credit } = splitAmounts(input.amount, fee, feeFromAmount);
    const balance = Number(card.balance);
    return { currency: card.currency, balance, amount: input.amount, fee, chargePayer: input.charge_payer, debit, credit, sufficient: balance >= debit };
  },
});

/** Sends a payout as the signed-in user, once per form submission. */
export const sendPayout = defineAction({
  name: 'sendPayout',
  permission: 'money:move',
  schema: sendPayoutSchema,
  handler: async ({ db, session, input }) => {
    const request = toPayoutRequest(input);
    return runOnce(db, session, { action: 'sendPayout', submissionId: input.submission_id, input: request }, async () => {
      const created = await createPayout(db, { businessId: session.businessId, mode: session.mode, actor: session.actor, input: request });
      const reference = 'initiator_reference' in created ? created.initiator_reference : created.provider_reference;
      return { reference };
    });
  },
});
