import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { payoutNumbers } from '../db/schema';
import { limitExceededError } from './limit-refusal';

/**
 * Refuses a payment or top-up the card could not take when it arrives: its
 * balance and its money held for approval, the payments to it still pending from the last 24 hours (an
 * abandoned checkout stops counting then) and its pending top-ups, plus this
 * amount, against its max_card_balance. Run it inside the transaction that
 * records the payment, after locking the card row, so that concurrent ones
 * are counted one after another.
 */
export async function assertCardCanTake(tx: DbOrTx, card: { id: number; currency: string }, amount: number): Promise<void> {
  // The card row is locked only when it has a limit, and then read again by a second statement, which sees every payment committed before the lock.
  const limited = await tx.execute(sql`
    SELECT 1 FROM cards c WHERE c.id = ${card.id} AND EXISTS (SELECT 1 FROM business_limits l
      WHERE l.business_id = c.business_id AND l.mode = c.mode AND l.currency = c.currency AND l.max_card_balance IS NOT NULL)
    FOR NO KEY UPDATE OF c`);
  if (limited.rows.length === 0) return;
  const result = await tx.execute<{ max_card_balance: number; headroom: number }>(sql`
    SELECT l.max_card_balance, l.max_card_balance - a.balance
      - (SELECT coalesce(sum(h.amount), 0) FROM holds h WHERE h.card_id = c.id AND h.status = 'open')
      - (SELECT coalesce(sum(p.amount), 0) FROM payments p
         WHERE p.card_id = c.id AND p.status = 'pending' AND p.created_at > now() - interval '24 hours')
      - (SELECT coalesce(sum(t.amount), 0) FROM payouts t
         WHERE t.business_id = c.business_id AND t.mode = c.mode AND t.is_ledger_topup AND t.status = 'pending'
           AND ${payoutNumbers} @> ARRAY[c.card_number] AND t.destination_card_number = c.card_number) AS headroom
    FROM cards c JOIN ledger_accounts a ON a.id = c.account_id
    JOIN business_limits l ON l.business_id = c.business_id AND l.mode = c.mode AND l.currency = c.currency
    WHERE c.id = ${card.id} AND l.max_card_balance IS NOT NULL`);
  const row = result.rows[0];
  if (row && Number(row.headroom) < amount) {
    throw limitExceededError({ limit: 'max_card_balance', value: Number(row.max_card_balance) }, card.currency);
  }
}
