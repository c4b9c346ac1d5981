import { eq, sql } from 'drizzle-orm';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { bumpCounter } from '../db/list-counters';
import { cards, ledgerAccounts } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { businessAccountId } from '../ledger/accounts';
import { postTransaction } from '../ledger/post-transaction';
import type { Actor } from '../actor';
import type { Mode } from '../validation';
import { announceCardChange } from './announce-card';
import { requireOwnCard } from './get-card';

export interface CancelCardOptions {
  businessId: number;
  mode: Mode;
  cardNumber: string;
  actor: Actor;
}

/** Cancels a card for good; whatever it still holds moves to the business account, in the same transaction. */
export async function cancelCard(db: Db, opts: CancelCardOptions): Promise<{ movedToBusiness: number }> {
  const probe = await requireOwnCard(db, opts.businessId, opts.mode, opts.cardNumber);
  const businessAccount = await businessAccountId(db, opts.businessId, opts.mode, probe.currency);
  const cancelled = await inTransaction(db, async (tx) => {
    const card = await requireOwnCard(tx, opts.businessId, opts.mode, opts.cardNumber, true);
    // Lock the card's account so no payout can slip in between reading the balance and moving it.
    const locked = await tx.execute<{ balance: number }>(sql`SELECT balance FROM ledger_accounts WHERE id = ${card.account_id} FOR UPDATE`);
    const balance = Number(locked.rows[0].balance);
    if (balance > 0) {
      await postTransaction(tx, {
        mode: opts.mode,
        kind: 'card_cancellation',
        businessId: opts.businessId,
        reference: card.card_number,
        actor: opts.actor,
        postings: [
          { accountId: card.account_id, amount: -balance },
          { accountId: businessAccount, amount: balance },
        ],
      });
    }
    await tx.update(cards).set({ cancelledAt: sql`now()`, updatedAt: sql`now()` }).where(eq(cards.id, card.id));
    // A payout waiting on this account's lock reads the closed account and refuses.
    await tx.update(ledgerAccounts).set({ closedAt: sql`now()` }).where(eq(ledgerAccounts.id, card.account_id));
    await bumpCounter(tx, opts.businessId, opts.mode, 'cards', -1);
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: opts.mode,
      actor: opts.actor,
      action: 'card.cancelled',
      target: card.card_number,
      details: { moved_to_business_account: balance },
    });
    return { movedToBusiness: balance, cardNumber: card.card_number };
  });
  announceCardChange(db, opts.businessId, opts.mode, 'card.updated', cancelled.cardNumber);
  return { movedToBusiness: cancelled.movedToBusiness };
}
