import { sql } from 'drizzle-orm';
import { backgroundLoop, type Stop } from '../background-loop';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import { businessAccountId } from '../ledger/accounts';
import type { Currency, Mode } from '../validation';
import { announceHold } from './announce-hold';
import { releaseHold } from './release-hold';
import { requireTillHold, toTillHold } from './till-hold-view';

const SYSTEM = { type: 'system' as const, id: null };
/** Often enough that a hold is released within a minute of expires_at, whichever instance sweeps. */
const EVERY_MS = 15_000;
const BATCH = 50;

/**
 * Releases till holds past expires_at to their cards, one transaction each:
 * the row is taken with SKIP LOCKED and claimed as a capture or void claims
 * it, so two instances (or a sweep and a late capture)
 * never both end it, and a crash mid-sweep leaves each hold either released
 * with its event or untouched. True when more may be due.
 */
export async function expireHolds(db: Db, batch = BATCH): Promise<boolean> {
  for (let i = 0; i < batch; i++) {
    const due = await db.execute<{ business_id: number; mode: Mode; currency: Currency }>(sql`
      SELECT business_id, mode, currency FROM holds
      WHERE kind = 'till' AND status = 'open' AND expires_at <= now() ORDER BY expires_at LIMIT 1`);
    const next = due.rows[0];
    if (!next) return false;
    const business = await businessAccountId(db, Number(next.business_id), next.mode, next.currency);
    const expired = await inTransaction(db, async (tx) => {
      const { rows } = await tx.execute<{ id: number; reference: string; card_id: number }>(sql`
        SELECT id, reference, card_id FROM holds
        WHERE kind = 'till' AND status = 'open' AND expires_at <= now()
          AND business_id = ${next.business_id} AND mode = ${next.mode} AND currency = ${next.currency}
        ORDER BY expires_at LIMIT 1 FOR UPDATE SKIP LOCKED`);
      const due = rows[0];
      if (!due) return false;
      const released = await releaseHold(tx, { holdId: Number(due.id), actor: SYSTEM, businessAccountId: business, outcome: 'expired' });
      if (!released) return true;
      const hold = toTillHold(await requireTillHold(tx, Number(next.business_id), next.mode, due.reference));
      await announceHold(tx, {
        type: 'hold.expired',
        hold,
        businessId: Number(next.business_id),
        mode: next.mode,
        cardId: Number(due.card_id),
        actor: SYSTEM,
        details: { transaction_id: released.transactionId },
      });
      return true;
    });
    // Another instance holds it: it is being expired there.
    if (!expired) return false;
  }
  return true;
}

export const startHoldExpiry = (db: Db): Stop => backgroundLoop('hold expiry', EVERY_MS, () => expireHolds(db));
