import { and, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../audit';
import type { Db, Tx } from '../db/client';
import { cards, payouts } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { businessAccountId, clearingAccountId, feeRevenueAccountId } from '../ledger/accounts';
import { postTransaction, type Posting } from '../ledger/post-transaction';
import { postCardCredit } from '../cards/card-credit';
import { releaseDailyPayout } from '../limits/release-daily-payout';
import type { Actor } from '../actor';
import { ACTIVE } from '../cards/card-status';
import { bankFailedReason, FAILURE_REASONS } from '../providers/failure-reasons';
import type { Currency, Mode } from '../validation';
import { enqueueEvent } from '../webhooks/outbox';
import { payoutEventPayload } from '../webhooks/payloads';
import { payoutCustomer, payoutEventInput, type PayoutRow } from './payout-view';

export interface SettlePayoutOptions {
  payoutId: number;
  outcome: 'success' | 'failed';
  actor: Actor;
  /** Why it failed, in plain words for the dashboard; without it a reason is chosen from what is known. */
  failureReason?: string;
  /** Runs in the settling transaction (also when the payout was already final), e.g. to close the rail's request with it. */
  inSameTransaction?: (tx: Tx) => Promise<unknown>;
}

/** The card a pending payout touches: the source of a bank payout, the target of a ledger top-up. */
async function payoutCard(db: Db, p: PayoutRow) {
  const where = p.isLedgerTopup
    ? and(eq(cards.cardNumber, p.destinationCardNumber!), eq(cards.businessId, p.businessId), eq(cards.mode, p.mode))
    : eq(cards.id, p.sourceCardId!);
  const [card] = await db.select({ id: cards.id, accountId: cards.accountId }).from(cards).where(where);
  return card;
}

/** The fee revenue account (one of its shards) that took this payout's fee: a refund must come from that one. */
async function feeAccountOf(db: Db, transactionId: number | null, mode: Mode, currency: Currency): Promise<number> {
  if (transactionId !== null) {
    const found = await db.execute<{ account_id: number }>(sql`
      SELECT e.account_id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
      WHERE e.transaction_id = ${transactionId} AND a.kind = 'fee_revenue' LIMIT 1`);
    if (found.rows[0]) return Number(found.rows[0].account_id);
  }
  return feeRevenueAccountId(db, mode, currency);
}

/**
 * Applies the provider's status update to a pending bank payout or ledger
 * top-up, exactly once: the payout row is locked and a payout that is no
 * longer pending is returned unchanged.
 */
export async function settlePayout(db: Db, opts: SettlePayoutOptions): Promise<PayoutRow> {
  const [probe] = await db.select().from(payouts).where(eq(payouts.id, opts.payoutId));
  if (probe?.status !== 'pending') return probe;
  const mode = probe.mode;
  const currency = probe.currency;
  // Account ids are resolved before the transaction opens (they may create shared accounts).
  const [card, clearing, feeAccount, businessAccount] = await Promise.all([
    payoutCard(db, probe),
    clearingAccountId(db, 'bank', mode, currency),
    feeAccountOf(db, probe.transactionId, mode, currency),
    businessAccountId(db, probe.businessId, mode, currency),
  ]);

  return inTransaction(db, async (tx) => {
    const [p] = await tx.select().from(payouts).where(eq(payouts.id, opts.payoutId)).for('update');
    await opts.inSameTransaction?.(tx);
    if (p.status !== 'pending') return p;
    // Card before accounts: the lock order card cancellation uses.
    const locked = card
      ? (
          await tx.execute<{ cancelled: boolean; active: boolean }>(sql`
          SELECT cancelled_at IS NOT NULL OR expired_at IS NOT NULL AS cancelled, status = ${ACTIVE} AS active FROM cards WHERE id = ${card.id} FOR NO KEY UPDATE`)
        ).rows[0]
      : undefined;
    const cardGone = !locked || locked.cancelled;

    let outcome = opts.outcome;
    let entries: Posting[] | undefined;
    let kind: string;
    let refundToCard = false;
    if (p.isLedgerTopup) {
      // A top-up whose card was cancelled (or expired) meanwhile cannot be delivered: it fails and the money goes home.
      if (cardGone) outcome = 'failed';
      const target = outcome === 'success' ? card!.accountId : businessAccount;
      entries = [
        { accountId: clearing, amount: -p.amount },
        { accountId: target, amount: p.amount },
      ];
      kind = outcome === 'success' ? 'transfer_settlement' : 'transfer_reversal';
    } else {
      kind = 'payout_bank_reversal';
      if (outcome === 'failed') {
        // The whole debit goes back in one transaction: to the card, or, when it
        // was disabled or cancelled meanwhile, to the business account (CONTRACT.md).
        const debit = p.chargePayer === 'customer' ? p.amount + p.serviceFee : p.amount;
        refundToCard = !cardGone && locked!.active;
        entries = [
          { accountId: clearing, amount: -(debit - p.serviceFee) },
          { accountId: feeAccount, amount: -p.serviceFee },
          { accountId: refundToCard ? card!.accountId : businessAccount, amount: debit },
        ];
      }
    }
    let overCardLimit = false;
    if (entries) {
      const posting = {
        mode,
        kind,
        businessId: p.businessId,
        reference: p.reference,
        actor: opts.actor,
        postings: entries,
        reversesId: outcome === 'failed' ? p.transactionId : null,
      };
      const delivered = p.isLedgerTopup && outcome === 'success' ? await postCardCredit(tx, posting) : undefined;
      if (delivered?.exceeded) {
        // The card can no longer take the top-up (its maximum balance): it fails and the money goes home.
        overCardLimit = true;
        outcome = 'failed';
        entries = [
          { accountId: clearing, amount: -p.amount },
          { accountId: businessAccount, amount: p.amount },
        ];
        await postTransaction(tx, { ...posting, kind: 'transfer_reversal', postings: entries, reversesId: p.transactionId });
      } else if (!delivered) await postTransaction(tx, posting);
    }
    if (outcome === 'failed' && !p.isLedgerTopup) await releaseDailyPayout(tx, p);
    const failureReason =
      outcome !== 'failed'
        ? null
        : overCardLimit
          ? FAILURE_REASONS.topUpOverCardLimit
          : p.isLedgerTopup && cardGone
            ? FAILURE_REASONS.destinationCardGone
            : (opts.failureReason ?? (p.isLedgerTopup ? FAILURE_REASONS.topUpRefused : bankFailedReason(p.bankSlug)));
    const [settled] = await tx
      .update(payouts)
      .set({ status: outcome, failureReason, updatedAt: sql`now()`, completedAt: sql`now()` })
      .where(eq(payouts.id, p.id))
      .returning();
    await enqueueEvent(tx, {
      businessId: p.businessId,
      mode,
      type: `payout.${outcome}`,
      payload: payoutEventPayload(payoutEventInput(settled, outcome, await payoutCustomer(tx, settled))),
      subjectReference: p.reference,
    });
    await recordAudit(tx, {
      businessId: p.businessId,
      mode,
      actor: opts.actor,
      action: `payout.${outcome}`,
      target: p.reference,
      details: { requested: opts.outcome, refunded_to: outcome === 'failed' && !p.isLedgerTopup ? (refundToCard ? 'card' : 'business_account') : undefined },
    });
    return settled;
  });
}
