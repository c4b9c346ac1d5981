import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { accountRefusedReason, FAILURE_REASONS } from '../providers/failure-reasons';
import { sandboxBankRail } from '../providers/sandbox';
import type { Stop } from '../background-loop';
import { backgroundLoop } from '../background-loop';
import { settlePayout } from './settle-payout';

const POLL_MS = 250;
const BATCH = 20;
const SYSTEM = { type: 'system', id: 'settlement-worker' } as const;

/**
 * Settles due sandbox bank payouts and ledger top-ups. SKIP LOCKED lets several
 * app instances share the work; settlePayout's own lock and status check make
 * sure each payout is applied once even if two instances pick the same one.
 */
async function settleDuePayouts(db: Db): Promise<number> {
  const due = await db.execute<{ id: number; account_number: string | null; bank_slug: string | null; is_ledger_topup: boolean }>(sql`
    SELECT id, account_number, bank_slug, is_ledger_topup FROM payouts
    WHERE status = 'pending' AND settle_after <= now()
    ORDER BY settle_after LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`);
  let settled = 0;
  for (const row of due.rows) {
    // A top-up settles like a bank payout (CONTRACT.md section 2); its account number is the card's.
    const outcome = sandboxBankRail.outcome({ accountNumber: row.account_number ?? '' });
    const failureReason = row.is_ledger_topup ? FAILURE_REASONS.topUpRefused : accountRefusedReason(row.bank_slug);
    const p = await settlePayout(db, { payoutId: Number(row.id), outcome, actor: SYSTEM, failureReason });
    if (p && p.status !== 'pending') settled++;
  }
  return settled;
}

export const startPayoutSettlement = (db: Db): Stop => backgroundLoop('settlement worker', POLL_MS, async () => (await settleDuePayouts(db)) === BATCH);
