import type { Actor } from '../actor';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import { businessAccountId } from '../ledger/accounts';
import type { Mode } from '../validation';
import { announceHold } from './announce-hold';
import { endedHoldRefusal } from './end-till-hold';
import { releaseHold } from './release-hold';
import { requireTillHold, type TillHold, toTillHold } from './till-hold-view';

export interface VoidHoldOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  reference: string;
}

/**
 * Releases a till's hold whole: its money goes back to the card (to the
 * business account when the card was cancelled meanwhile), claimed by the
 * same claim as a capture, so exactly one of them wins. A void
 * repeated answers the voided hold again. A hold past expires_at that the
 * sweep has not reached yet may still be voided: the money goes to the same
 * place either way.
 */
export async function voidHold(db: Db, opts: VoidHoldOptions): Promise<TillHold> {
  const probe = await requireTillHold(db, opts.businessId, opts.mode, opts.reference);
  const business = await businessAccountId(db, probe.business_id, probe.mode, probe.currency);
  return inTransaction(db, async (tx) => {
    const released = await releaseHold(tx, { holdId: probe.id, actor: opts.actor, businessAccountId: business, outcome: 'voided' });
    const row = await requireTillHold(tx, opts.businessId, opts.mode, probe.reference);
    const now = toTillHold(row);
    if (!released) {
      const refusal = endedHoldRefusal(row, 'void');
      if (refusal) throw refusal;
      return now;
    }
    await announceHold(tx, {
      type: 'hold.voided',
      hold: now,
      businessId: probe.business_id,
      mode: probe.mode,
      cardId: probe.card_id,
      actor: opts.actor,
      details: { transaction_id: released.transactionId },
    });
    return now;
  });
}
