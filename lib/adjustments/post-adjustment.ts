import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors';
import { postTransaction, type PostTransactionOptions } from '../ledger/post-transaction';
import { postCardCredit } from '../cards/card-credit';
import { limitExceededError } from '../limits/limit-refusal';
import type { Mode } from '../validation';
import type { AdjustmentDirection, AdjustmentReason } from './adjustment-reasons';

/** What an adjustment's approval runs (stored as the request's options). */
export interface AdjustmentOptions {
  direction: AdjustmentDirection;
  amount: number;
  reason_code: AdjustmentReason;
  note: string | null;
}

export interface PostAdjustmentOptions {
  businessId: number;
  mode: Mode;
  cardId: number;
  businessAccountId: number;
  /** The approval request's reference: the ledger transaction carries it. */
  reference: string;
  /** Who asked for it; the approval's audit line names who approved. */
  actor: Actor;
  adjustment: AdjustmentOptions;
}

/** Moves an approved adjustment between the card and the business account, in the caller's transaction. */
export async function postAdjustment(tx: DbOrTx, opts: PostAdjustmentOptions): Promise<{ reference: string }> {
  const { rows } = await tx.execute<{ account_id: number; currency: string }>(sql`
    SELECT account_id, currency FROM cards WHERE id = ${opts.cardId} AND business_id = ${opts.businessId} AND mode = ${opts.mode}`);
  if (!rows[0]) throw new ServiceError('card_not_found', 'The card is not one of this business’s cards.');
  const card = Number(rows[0].account_id);
  const { amount, direction } = opts.adjustment;
  const up = direction === 'increase';
  const posting: PostTransactionOptions = {
    mode: opts.mode,
    kind: up ? 'adjustment_increase' : 'adjustment_decrease',
    businessId: opts.businessId,
    reference: opts.reference,
    actor: opts.actor,
    postings: [
      { accountId: card, amount: up ? amount : -amount },
      { accountId: opts.businessAccountId, amount: up ? -amount : amount },
    ],
    onClosed: () => new ServiceError('card_not_found', 'The card was cancelled while the adjustment waited.'),
    onInsufficient: (accountId) =>
      new ServiceError(
        'insufficient_balance',
        accountId === card ? 'The card no longer holds the amount to take back.' : 'The business account does not hold the amount to add.',
      ),
  };
  if (!up) await postTransaction(tx, posting);
  else {
    // Money added to a card is a credit like a top-up: the card's max_card_balance holds for it too (lib/limits/).
    const credited = await postCardCredit(tx, posting);
    if (credited.exceeded) throw limitExceededError(credited.exceeded, rows[0].currency);
  }
  return { reference: opts.reference };
}
