import type { Actor } from '../actor';
import type { CardRow } from '../cards/card-view';
import type { Tx } from '../db/client';
import { cardNotFound, ServiceError } from '../errors';
import { serviceFee } from '../fees/fee-schedule';
import { postTransaction } from '../ledger/post-transaction';
import { queueMoneyMessages } from '../messages/queue-message';

export interface PostRedemptionOptions {
  /** The card, locked by the caller's transaction. */
  card: CardRow;
  amount: number;
  reference: string;
  actor: Actor;
  businessAccountId: number;
  feeRevenueAccountId: number;
}

export interface PostedRedemption {
  fee: number;
  /** The card's balance after the debit. */
  balance: number;
  transactionId: number;
}

/**
 * The money of a redemption, in the caller's transaction: the card is debited
 * `amount` (never below zero), the business account credited the amount less
 * the `redemption` fee of its schedule, the provider the fee. A till redeeming
 * at once and a till capturing a hold both spend a card through here.
 */
export async function postRedemption(tx: Tx, opts: PostRedemptionOptions): Promise<PostedRedemption> {
  const { card } = opts;
  const fee = await serviceFee(tx, card.business_id, card.mode, 'redemption', opts.amount);
  if (fee > opts.amount) {
    throw new ServiceError('amount_below_fee', `The redemption fee (${fee} minor units) is more than the amount.`, { field: 'amount' });
  }
  const posted = await postTransaction(tx, {
    mode: card.mode,
    kind: 'card_redemption',
    businessId: card.business_id,
    reference: opts.reference,
    actor: opts.actor,
    postings: [
      { accountId: card.account_id, amount: -opts.amount },
      { accountId: opts.businessAccountId, amount: opts.amount - fee },
      { accountId: opts.feeRevenueAccountId, amount: fee },
    ],
    onInsufficient: () => new ServiceError('insufficient_balance', 'The card does not hold this amount.', { field: 'amount' }),
    onClosed: () => cardNotFound(),
  });
  await queueMoneyMessages(tx, { accountIds: [card.account_id], transactionId: posted.transactionId, kind: 'money_spent' });
  return { fee, balance: posted.balances.get(card.account_id) ?? 0, transactionId: posted.transactionId };
}
