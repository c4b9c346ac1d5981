import type { Actor } from '../actor';
import type { DbOrTx } from '../db/client';
import { holds } from '../db/schema';
import type { ServiceError } from '../errors';
import { postTransaction } from '../ledger/post-transaction';
import type { Currency, Mode } from '../validation';

export interface PlaceHoldOptions {
  businessId: number;
  mode: Mode;
  currency: Currency;
  /** The account the money is taken from: a card's, or the business account. */
  sourceAccountId: number;
  /** The business's held account of this mode and currency (heldAccountId, resolved before the transaction). */
  heldAccountId: number;
  /** The card whose held_amount the hold counts in, when the source is a card. */
  cardId: number | null;
  amount: number;
  /** What the money waits for (an approval request's reference, a till's), kept on the hold and its ledger lines. */
  purpose: string;
  actor: Actor;
  onInsufficient: () => ServiceError;
  onClosed?: () => Error;
  /** A till's hold (lib/holds/place-till-hold.ts): named by `purpose` as its hold_reference, and due to expire. */
  till?: { merchantReference: string | null; createdAt: Date; expiresAt: Date };
}

/**
 * Sets money aside: one ledger transaction from the source account to the
 * business's held account, so the source's balance (a card's
 * available_amount) drops at once and nothing else can spend it. Refused,
 * with nothing written, when the source does not hold the amount.
 */
export async function placeHold(tx: DbOrTx, opts: PlaceHoldOptions): Promise<{ holdId: number; transactionId: number }> {
  const posted = await postTransaction(tx, {
    mode: opts.mode,
    kind: 'hold',
    businessId: opts.businessId,
    reference: opts.purpose,
    actor: opts.actor,
    postings: [
      { accountId: opts.sourceAccountId, amount: -opts.amount },
      { accountId: opts.heldAccountId, amount: opts.amount },
    ],
    onInsufficient: opts.onInsufficient,
    onClosed: opts.onClosed,
  });
  const [row] = await tx
    .insert(holds)
    .values({
      businessId: opts.businessId,
      mode: opts.mode,
      currency: opts.currency,
      sourceAccountId: opts.sourceAccountId,
      cardId: opts.cardId,
      amount: opts.amount,
      purpose: opts.purpose,
      holdTransactionId: posted.transactionId,
      ...(opts.till
        ? {
            kind: 'till' as const,
            reference: opts.purpose,
            merchantReference: opts.till.merchantReference,
            createdAt: opts.till.createdAt,
            expiresAt: opts.till.expiresAt,
          }
        : {}),
    })
    .returning({ id: holds.id });
  return { holdId: row.id, transactionId: posted.transactionId };
}
