import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { selectCards } from '../cards/card-view';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import { cardNotFound } from '../errors';
import { businessAccountId, feeRevenueAccountId } from '../ledger/accounts';
import { recordTransactionLocation, requireLocation } from '../locations/locations';
import { type PostedRedemption, postRedemption } from '../redemptions/post-redemption';
import type { Mode } from '../validation';
import { announceHold } from './announce-hold';
import { endedHoldRefusal, holdExpired } from './end-till-hold';
import { releaseHold } from './release-hold';
import type { CaptureRequest } from './till-hold-request';
import { requireTillHold, settledTillHold, type TillHold, toTillHold } from './till-hold-view';

export interface CaptureHoldOptions extends CaptureRequest {
  businessId: number;
  mode: Mode;
  actor: Actor;
  reference: string;
}

/**
 * Redeems a till's hold: `amount` (the whole hold when not given) is spent at
 * the business as a redemption, and the rest goes back to the card, in one
 * transaction. The hold is claimed (releaseHold) by a lock taken only while
 * it is open, not expired and worth the amount, so a capture, a void and
 * the expiry sweep racing on it have exactly one winner. A loser answers what
 * the hold became once the winner committed: the same capture repeated (even
 * one arriving after expires_at while the first was under way) answers the
 * captured hold again.
 */
export async function captureHold(db: Db, opts: CaptureHoldOptions): Promise<TillHold> {
  const probe = await requireTillHold(db, opts.businessId, opts.mode, opts.reference);
  const amount = opts.amount ?? Number(probe.amount);
  // An open hold past expires_at may be mid-capture in another transaction: only the claim below knows.
  const refused = probe.status === 'open' ? null : endedHoldRefusal(probe, 'capture', amount);
  if (refused) throw refused;
  // The capture's redemption is recorded where the capture happened, else where the hold was placed.
  const locationId = opts.location_id === undefined ? probe.location_id : (await requireLocation(db, opts.businessId, opts.location_id)).id;
  const business = await businessAccountId(db, probe.business_id, probe.mode, probe.currency);
  const feeRevenue = await feeRevenueAccountId(db, probe.mode, probe.currency);
  return inTransaction(db, async (tx) => {
    // Read, not locked: a cancellation committed meanwhile closes the card's account, and the redemption's posting refuses it.
    const [card] = await selectCards(tx, sql`c.id = ${probe.card_id}`);
    let spent: PostedRedemption | undefined;
    const released = await releaseHold(tx, {
      holdId: probe.id,
      actor: opts.actor,
      businessAccountId: business,
      outcome: 'captured',
      capturedAmount: amount,
      afterRelease: async () => {
        // A cancelled card is gone from the API: its hold can only be voided (or expire), its money then reaching the business account.
        if (card.cancelled_at) throw cardNotFound();
        spent = await postRedemption(tx, {
          card,
          amount,
          reference: probe.reference,
          actor: opts.actor,
          businessAccountId: business,
          feeRevenueAccountId: feeRevenue,
        });
        await recordTransactionLocation(tx, spent.transactionId, locationId);
        return spent;
      },
    });
    if (!released || !spent) {
      const now = await settledTillHold(tx, opts.businessId, opts.mode, probe.reference);
      const refusal = endedHoldRefusal(now, 'capture', amount);
      if (refusal) throw refusal;
      // Still open and worth the amount, yet not claimed: past expires_at by the database's clock.
      if (now.status === 'open') throw holdExpired();
      return toTillHold(now);
    }
    const hold = toTillHold(await requireTillHold(tx, opts.businessId, opts.mode, probe.reference));
    await announceHold(tx, {
      type: 'hold.captured',
      hold,
      businessId: probe.business_id,
      mode: probe.mode,
      cardId: probe.card_id,
      actor: opts.actor,
      details: { release_transaction_id: released.transactionId, transaction_id: spent.transactionId },
    });
    return hold;
  });
}
