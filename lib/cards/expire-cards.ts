import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import { backgroundLoop, type Stop } from '../background-loop';
import type { Db, Tx } from '../db/client';
import { inTransaction } from '../db/transaction';
import { announceHold } from '../holds/announce-hold';
import { releaseHold } from '../holds/release-hold';
import { requireTillHold, toTillHold } from '../holds/till-hold-view';
import { breakageAccountId, businessAccountId } from '../ledger/accounts';
import { postTransaction } from '../ledger/post-transaction';
import type { Currency, Mode } from '../validation';
import { enqueueEvent } from '../webhooks/outbox';
import { expiryEventPayload } from '../webhooks/payloads';
import { announceCardChange } from './announce-card';
import { DISABLED, DISABLED_BY_EXPIRY } from './card-status';
import { selectCards } from './card-view';

const SYSTEM: Actor = { type: 'system', id: null };
const BATCH = 50;

/**
 * The approvals workflow's part in a card's expiry, handed in so that this use
 * case reaches no workflow: it fails the request awaiting approval whose hold
 * the expiry released (failApprovalOfExpiredCard in lib/approvals/expire-approvals.ts).
 */
export type FailApprovalOfHold = (tx: Tx, holdId: number) => Promise<void>;

/**
 * Gives back the money held on an expiring card (till holds, requests awaiting
 * approval) before its balance becomes breakage, so nothing stays set aside
 * for a card that can no longer be spent. The one place expiry meets holds:
 * a till's hold ends as expired, with its hold.expired event, as the hold sweep
 * would end it; a request awaiting approval fails, so no approver can later
 * pay out (or refund from the business account) money that became breakage.
 */
async function releaseCardHolds(
  tx: Tx,
  card: { id: number; businessId: number; mode: Mode },
  businessAccount: number,
  failApproval: FailApprovalOfHold,
): Promise<void> {
  const open = await tx.execute<{ id: number; kind: string; reference: string | null }>(
    sql`SELECT id, kind, reference FROM holds WHERE card_id = ${card.id} AND status = 'open' ORDER BY id`,
  );
  for (const hold of open.rows) {
    const till = hold.kind === 'till' && hold.reference !== null;
    const released = await releaseHold(tx, {
      holdId: Number(hold.id),
      actor: SYSTEM,
      businessAccountId: businessAccount,
      outcome: till ? 'expired' : undefined,
    });
    if (!released) continue;
    if (!till) {
      await failApproval(tx, Number(hold.id));
      continue;
    }
    const ended = toTillHold(await requireTillHold(tx, card.businessId, card.mode, hold.reference!));
    await announceHold(tx, {
      type: 'hold.expired',
      hold: ended,
      businessId: card.businessId,
      mode: card.mode,
      cardId: card.id,
      actor: SYSTEM,
      details: { transaction_id: released.transactionId, card_expired: true },
    });
  }
}

/**
 * Expires one due card of this business, mode and currency, in one
 * transaction: the card is claimed with SKIP LOCKED and a conditional update
 * (not yet expired nor cancelled, due by the database's clock), so two
 * instances, or a sweep and a cancellation, never both act on it; its holds
 * are released, its whole balance moves to the business's breakage account,
 * its account closes (a payout waiting on its lock then refuses) and
 * card.expired is written to the outbox. A crash before commit leaves all of
 * it undone, to be done once by the next sweep. Null when no card was due
 * (or another instance has it).
 */
async function expireOneCard(db: Db, due: { business_id: number; mode: Mode; currency: Currency }, failApproval: FailApprovalOfHold): Promise<string | null> {
  const businessId = Number(due.business_id);
  const business = await businessAccountId(db, businessId, due.mode, due.currency);
  const breakage = await breakageAccountId(db, businessId, due.mode, due.currency);
  return inTransaction(db, async (tx) => {
    const claimed = await tx.execute<{ id: number }>(sql`
      UPDATE cards SET status = ${DISABLED}, disabled_by = ${DISABLED_BY_EXPIRY}, expired_at = now(), updated_at = now()
      WHERE id = (SELECT id FROM cards WHERE expires_at <= now() AND expired_at IS NULL AND cancelled_at IS NULL
                    AND business_id = ${businessId} AND mode = ${due.mode} AND currency = ${due.currency}
                  ORDER BY expires_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id`);
    const id = claimed.rows[0]?.id;
    if (id === undefined) return null;
    // The account first: a hold being placed meanwhile (it posts from this account) waits, then meets it closed.
    await tx.execute(sql`SELECT 1 FROM ledger_accounts WHERE id = (SELECT account_id FROM cards WHERE id = ${id}) FOR UPDATE`);
    await releaseCardHolds(tx, { id: Number(id), businessId, mode: due.mode }, business, failApproval);
    const [card] = await selectCards(tx, sql`c.id = ${id}`, sql`FOR UPDATE OF a`);
    const balance = Number(card.balance);
    if (balance > 0) {
      await postTransaction(tx, {
        mode: card.mode,
        kind: 'card_expiry',
        businessId,
        reference: card.card_number,
        actor: SYSTEM,
        postings: [
          { accountId: card.account_id, amount: -balance },
          { accountId: breakage, amount: balance },
        ],
      });
    }
    await tx.execute(sql`UPDATE ledger_accounts SET closed_at = now() WHERE id = ${card.account_id}`);
    await enqueueEvent(tx, {
      businessId,
      mode: card.mode,
      type: 'card.expired',
      subjectReference: card.card_number,
      payload: expiryEventPayload({
        mode: card.mode,
        currency: card.currency,
        amount: balance,
        cardNumber: card.card_number,
        expiresAt: card.expires_at!,
        customer: { first_name: card.first_name, last_name: card.last_name, email: card.email, phone_number: card.phone_number },
        createdAt: new Date(),
      }),
    });
    await recordAudit(tx, {
      businessId,
      mode: card.mode,
      actor: SYSTEM,
      action: 'card.expired',
      target: card.card_number,
      details: { moved_to_breakage: balance, currency: card.currency, expires_at: new Date(card.expires_at!).toISOString() },
    });
    return card.card_number;
  });
}

/** One sweep: expires up to `batch` due cards, one transaction each. True when more may be due. */
export async function expireDueCards(db: Db, failApproval: FailApprovalOfHold, batch = BATCH): Promise<boolean> {
  for (let i = 0; i < batch; i++) {
    const due = await db.execute<{ business_id: number; mode: Mode; currency: Currency }>(sql`
      SELECT business_id, mode, currency FROM cards
      WHERE expires_at <= now() AND expired_at IS NULL AND cancelled_at IS NULL ORDER BY expires_at LIMIT 1`);
    const next = due.rows[0];
    if (!next) return false;
    const cardNumber = await expireOneCard(db, next, failApproval);
    // Another instance holds it: it is being expired there.
    if (!cardNumber) return false;
    announceCardChange(db, Number(next.business_id), next.mode, 'card.updated', cardNumber);
  }
  return true;
}

const sweepEveryMs = () => Number(process.env.CARD_EXPIRY_SWEEP_MS) || 30_000;

export const startCardExpiry = (db: Db, failApproval: FailApprovalOfHold): Stop =>
  backgroundLoop('card expiry', sweepEveryMs(), () => expireDueCards(db, failApproval));
