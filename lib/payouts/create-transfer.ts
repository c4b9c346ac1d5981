import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { bumpCounter } from '../db/list-counters';
import { payouts } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { cardNotFound, ServiceError } from '../errors';
import { newReference } from '../ids';
import { businessAccountId, clearingAccountId } from '../ledger/accounts';
import { postTransaction } from '../ledger/post-transaction';
import type { Actor } from '../actor';
import { assertCardCanTake } from '../limits/card-headroom';
import { requireOwnCard } from '../cards/get-card';
import { ACTIVE } from '../cards/card-status';
import { sandboxBankRail } from '../providers/sandbox';
import { amountSchema, parseInput, requiredText, type Mode } from '../validation';
import { announceCreated } from '../webhooks/live-updates';

export interface CreateTransferOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  input: unknown;
}

export const transferSchema = z.object({
  amount: z.unknown().pipe(amountSchema),
  bank_slug: requiredText('bank_slug', 64),
  account_number: requiredText('account_number', 64),
  account_name: requiredText('account_name', 200),
});

/** Live top-ups are internal: the settlement worker completes them within a second. */
const LIVE_SETTLE_AFTER_MS = 0;

/**
 * POST /transfers, the ledger top-up of a card from the business account
 * (bank slug `link`). The business account is debited now into clearing; the
 * card is credited when the transfer settles. No service fee: the money stays
 * inside the business's own books.
 */
export async function createTransfer(db: Db, opts: CreateTransferOptions) {
  const payout = await recordTransfer(db, opts);
  announceCreated(db, opts.businessId, opts.mode, 'payout', payout.reference);
  return {
    provider_reference: payout.reference,
    status: 'PENDING',
    created_at: payout.createdAt.toISOString(),
    updated_at: payout.updatedAt.toISOString(),
  };
}

/** The top-up's checks and writes, without telling the live pages: what createTransfer does, and what a dry run of it checks. */
export async function recordTransfer(db: Db, opts: CreateTransferOptions) {
  const input = parseInput(transferSchema, opts.input);
  if (input.bank_slug !== 'link') throw new ServiceError('invalid_bank_slug', 'A ledger top-up takes bank_slug link.');
  const card = await requireOwnCard(db, opts.businessId, opts.mode, input.account_number);
  if (card.status !== ACTIVE) throw new ServiceError('card_disabled', 'The gift card to top up is disabled.');
  const currency = card.currency;
  const [businessAccount, clearing] = await Promise.all([
    businessAccountId(db, opts.businessId, opts.mode, currency),
    clearingAccountId(db, 'bank', opts.mode, currency),
  ]);
  const settleMs = opts.mode === 'live' ? LIVE_SETTLE_AFTER_MS : sandboxBankRail.settleAfterMs();
  const reference = newReference('trf');
  return inTransaction(db, async (tx) => {
    const locked = await tx.execute<{ status: number; cancelled: boolean }>(
      sql`SELECT status, cancelled_at IS NOT NULL AS cancelled FROM cards WHERE id = ${card.id} FOR NO KEY UPDATE`,
    );
    if (locked.rows[0].cancelled) throw cardNotFound();
    if (locked.rows[0].status !== ACTIVE) throw new ServiceError('card_disabled', 'The gift card to top up is disabled.');
    await assertCardCanTake(tx, card, input.amount);
    const posted = await postTransaction(tx, {
      mode: opts.mode,
      kind: 'transfer',
      businessId: opts.businessId,
      reference,
      actor: opts.actor,
      postings: [
        { accountId: businessAccount, amount: -input.amount },
        { accountId: clearing, amount: input.amount },
      ],
      onInsufficient: () =>
        new ServiceError('insufficient_balance', `Your business account does not hold enough ${currency} for this transfer; add funds first.`),
    });
    const [row] = await tx
      .insert(payouts)
      .values({
        businessId: opts.businessId,
        mode: opts.mode,
        payoutType: 'bank',
        status: 'pending',
        currency,
        amount: input.amount,
        serviceFee: 0,
        chargePayer: 'business',
        reference,
        destinationCardNumber: card.card_number,
        bankSlug: 'link',
        accountNumber: card.card_number,
        accountName: input.account_name,
        isLedgerTopup: true,
        transactionId: posted.transactionId,
        actorType: opts.actor.type,
        actorId: opts.actor.id,
        settleAfter: settleMs === null ? null : new Date(Date.now() + settleMs),
      })
      .returning();
    await bumpCounter(tx, opts.businessId, opts.mode, 'transfers', 1);
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: opts.mode,
      actor: opts.actor,
      action: 'transfer.created',
      target: reference,
      details: { amount: input.amount, card_number: card.card_number },
    });
    return row;
  });
}
