import { sql } from 'drizzle-orm';
import { backgroundLoop, type Stop } from '../background-loop';
import type { Db, Tx } from '../db/client';
import { inTransaction } from '../db/transaction';
import type { Currency, Mode } from '../validation';
import { ENDINGS } from './approval-operations';
import type { ApprovalRow } from './approval-request';
import { audit } from './decide-approval';
import { releaseRequestMoney, requestAccounts } from './request-money';

const SYSTEM = { type: 'system' as const, id: null };
const EVERY_MS = 60_000;
const BATCH = 50;

/**
 * Expires requests past their 72 hours, one transaction each: the row is
 * claimed with SKIP LOCKED and a conditional update, so two app instances
 * (or a sweep and a late decision) never both act on it; its holds are
 * released (an upload's rows cancelled) and the expiry audited with it.
 * True when more may be due.
 */
export async function expireApprovals(db: Db, batch = BATCH): Promise<boolean> {
  for (let i = 0; i < batch; i++) {
    const due = await db.execute<{ business_id: number; mode: Mode; currency: Currency | null; reference: string }>(sql`
      SELECT business_id, mode, currency, reference FROM approval_requests
      WHERE status = 'awaiting_approval' AND expires_at <= now() ORDER BY expires_at LIMIT 1`);
    const next = due.rows[0];
    if (!next) return false;
    const accounts = await requestAccounts(db, next);
    const expired = await inTransaction(db, async (tx) => {
      const { rows } = await tx.execute<ApprovalRow & Record<string, unknown>>(sql`
        UPDATE approval_requests SET status = 'expired', decided_at = now()
        WHERE id = (SELECT id FROM approval_requests WHERE status = 'awaiting_approval' AND expires_at <= now()
                    AND business_id = ${next.business_id} AND mode = ${next.mode} AND reference = ${next.reference}
                    FOR UPDATE SKIP LOCKED)
        RETURNING *`);
      const request = rows[0];
      if (!request) return false;
      await releaseRequestMoney(tx, request, SYSTEM, accounts);
      await ENDINGS[request.kind]?.(tx, request, 'expired');
      await audit(tx, request, SYSTEM, 'approval.expired', {});
      return true;
    });
    // Another instance holds it: it is being expired there.
    if (!expired) return false;
  }
  return true;
}

const EXPIRED_REASON = 'Gift card disabled: the card expired and its balance became breakage.';

/** A request awaiting approval whose card expired (its hold released with the card's other holds) fails. */
export async function failApprovalOfExpiredCard(tx: Tx, holdId: number): Promise<void> {
  const { rows } = await tx.execute<ApprovalRow & Record<string, unknown>>(sql`
    UPDATE approval_requests SET status = 'failed', failure_reason = ${EXPIRED_REASON}, decided_at = now()
    WHERE hold_id = ${holdId} AND status = 'awaiting_approval'
    RETURNING *`);
  for (const request of rows) await audit(tx, request, SYSTEM, 'approval.failed', { reason: EXPIRED_REASON });
}

export const startApprovalExpiry = (db: Db): Stop => backgroundLoop('approval expiry', EVERY_MS, () => expireApprovals(db));
