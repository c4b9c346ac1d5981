import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { selectCards } from '../cards/card-view';
import type { Db, Tx } from '../db/client';
import { inTransaction } from '../db/transaction';
import { cardNotFound } from '../errors';
import { businessAccountId, feeRevenueAccountId } from '../ledger/accounts';
import { recordTransactionLocation, requireLocation } from '../locations/locations';
import { type PostedRedemption, postRedemption } from '../redemptions/post-redemption';
import { requestSpendCode, type SpendCodeRequired, spendCodeOver } from '../spend-codes/request-spend-code';
import type { Mode } from '../validation';
import { announceHold } from './announce-hold';
import { endedHoldRefusal, holdExpired } from './end-till-hold';
import { releaseHold } from './release-hold';
import type { CaptureRequest } from './till-hold-request';
import { requireTillHold, settledTillHold, type TillHold, type TillHoldRow, toTillHold } from './till-hold-view';

export interface CaptureHoldOptions extends CaptureRequest {
  businessId: number;
  mode: Mode;
  actor: Actor;
  reference: string;
}

/** A capture with its amount decided and its accounts found, before its transaction opens. */
export interface PreparedCapture {
  businessId: number;
  mode: Mode;
  actor: Actor;
  probe: TillHoldRow;
  amount: number;
  locationId: number | null;
  businessAccountId: number;
  feeRevenueAccountId: number;
}

/** Checks a hold as a capture of `amount` would, and finds the accounts the capture posts to. */
export async function prepareCapture(
  db: Db,
  o: { businessId: number; mode: Mode; actor: Actor; reference: string; amount?: number; locationId?: number | null },
): Promise<PreparedCapture> {
  const probe = await requireTillHold(db, o.businessId, o.mode, o.reference);
  const amount = o.amount ?? Number(probe.amount);
  // An open hold past expires_at may be mid-capture in another transaction: only the claim below knows.
  const refused = probe.status === 'open' ? null : endedHoldRefusal(probe, 'capture', amount);
  if (refused) throw refused;
  return {
    businessId: o.businessId,
    mode: o.mode,
    actor: o.actor,
    probe,
    amount,
    // The capture's redemption is recorded where the capture happened, else where the hold was placed.
    locationId: o.locationId === undefined ? probe.location_id : o.locationId,
    businessAccountId: await businessAccountId(db, probe.business_id, probe.mode, probe.currency),
    feeRevenueAccountId: await feeRevenueAccountId(db, probe.mode, probe.currency),
  };
}

/**
 * Redeems a till's hold: `amount` (the whole hold when not given) is spent at
 * the business as a redemption, and the rest goes back to the card, in one
 * transaction. The hold is claimed (releaseHold) by a lock taken only while
 * it is open, not expired and worth the amount, so a capture, a void and
 * the expiry sweep racing on it have exactly one winner. A loser answers what
 * the hold became once the winner committed: the same capture repeated (even
 * one arriving after expires_at while the first was under way) answers the
 * captured hold again. Over the business's spend_code_over nothing is captured
 * yet: the answer is the confirmation waiting for the cardholder's code.
 */
export async function captureHold(db: Db, opts: CaptureHoldOptions): Promise<TillHold | SpendCodeRequired> {
  const prepared = await prepareCapture(db, opts);
  // The hold is looked up (and refused) first, then the branch named.
  if (opts.location_id !== undefined) prepared.locationId = (await requireLocation(db, opts.businessId, opts.location_id)).id;
  // A hold already captured (the same capture repeated) answers as it is, code or none: it moves nothing again.
  const over = prepared.probe.status === 'open' ? await spendCodeOver(db, opts.businessId, opts.mode, prepared.probe.currency) : null;
  if (over !== null && prepared.amount > over) return inTransaction(db, (tx) => requestCaptureCode(tx, prepared));
  return inTransaction(db, (tx) => captureInTransaction(tx, prepared));
}

/** A capture over the code threshold: the hold must be capturable now (open, unexpired, worth it, card not cancelled). */
async function requestCaptureCode(tx: Tx, p: PreparedCapture): Promise<TillHold | SpendCodeRequired> {
  const { rows } = await tx.execute(
    sql`SELECT id FROM holds WHERE id = ${p.probe.id} AND status = 'open' AND expires_at > now() AND amount >= ${p.amount} FOR UPDATE`,
  );
  if (rows.length === 0) {
    // Captured meanwhile by the same capture (one that needed no code, or its code confirmed): answered as it is.
    const now = await settledTillHold(tx, p.businessId, p.mode, p.probe.reference);
    const refusal = endedHoldRefusal(now, 'capture', p.amount);
    if (refusal) throw refusal;
    if (now.status === 'open') throw holdExpired();
    return toTillHold(now);
  }
  const [card] = await selectCards(tx, sql`c.id = ${p.probe.card_id}`);
  if (card.cancelled_at) throw cardNotFound();
  return requestSpendCode(tx, {
    businessId: p.businessId,
    mode: p.mode,
    actor: p.actor,
    card,
    amount: p.amount,
    locationId: p.locationId,
    hold: { id: p.probe.id, reference: p.probe.reference },
  });
}

/** The capture itself, in the caller's transaction (a confirmed code completes one here too). */
export async function captureInTransaction(tx: Tx, p: PreparedCapture): Promise<TillHold> {
  const { probe, amount } = p;
  // Read, not locked: a cancellation committed meanwhile closes the card's account, and the redemption's posting refuses it.
  const [card] = await selectCards(tx, sql`c.id = ${probe.card_id}`);
  let spent: PostedRedemption | undefined;
  const released = await releaseHold(tx, {
    holdId: probe.id,
    actor: p.actor,
    businessAccountId: p.businessAccountId,
    outcome: 'captured',
    capturedAmount: amount,
    afterRelease: async () => {
      // A cancelled card is gone from the API: its hold can only be voided (or expire), its money then reaching the business account.
      if (card.cancelled_at) throw cardNotFound();
      spent = await postRedemption(tx, {
        card,
        amount,
        reference: probe.reference,
        actor: p.actor,
        businessAccountId: p.businessAccountId,
        feeRevenueAccountId: p.feeRevenueAccountId,
      });
      await recordTransactionLocation(tx, spent.transactionId, p.locationId);
      return spent;
    },
  });
  if (!released || !spent) {
    const now = await settledTillHold(tx, p.businessId, p.mode, probe.reference);
    const refusal = endedHoldRefusal(now, 'capture', amount);
    if (refusal) throw refusal;
    // Still open and worth the amount, yet not claimed: past expires_at by the database's clock.
    if (now.status === 'open') throw holdExpired();
    return toTillHold(now);
  }
  const hold = toTillHold(await requireTillHold(tx, p.businessId, p.mode, probe.reference));
  await announceHold(tx, {
    type: 'hold.captured',
    hold,
    businessId: probe.business_id,
    mode: probe.mode,
    cardId: probe.card_id,
    actor: p.actor,
    details: { release_transaction_id: released.transactionId, transaction_id: spent.transactionId },
  });
  return hold;
}
