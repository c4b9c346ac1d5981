import { sql } from 'drizzle-orm';
import { APPROVAL_TTL_MS } from '../approvals/approval-request';
import { backgroundLoop, type Stop } from '../background-loop';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import type { Mode } from '../validation';

const SYSTEM = { type: 'system' as const, id: null };
const EVERY_MS = 60_000;
const BATCH = 50;

/**
 * Expires payout uploads that waited for a second person past their time (a
 * single approval request's, APPROVAL_TTL_MS), one transaction each: the job
 * is claimed with SKIP LOCKED and a conditional update, so two app instances
 * never both expire it and an approval holding the job's lock is not expired
 * under it (the approval itself refuses an overdue upload). Its rows are
 * cancelled, never to run, and the expiry audited with it. Nothing is held
 * for a waiting upload, so nothing is released. True when more may be due.
 */
export async function expireUploads(db: Db, batch = BATCH): Promise<boolean> {
  // An instance older than expiry (during a rolling deploy) can leave an upload waiting with no date: it gets the full
  // time from now, never less than it would have had, instead of waiting forever.
  await db.execute(sql`
    UPDATE upload_jobs SET expires_at = now() + make_interval(secs => ${APPROVAL_TTL_MS / 1000})
    WHERE status = 'awaiting_approval' AND expires_at IS NULL`);
  for (let i = 0; i < batch; i++) {
    const expired = await inTransaction(db, async (tx) => {
      const { rows } = await tx.execute<{ id: number; business_id: number; mode: Mode; reference: string; kind: string }>(sql`
        UPDATE upload_jobs SET status = 'expired', finished_at = now()
        WHERE id = (SELECT id FROM upload_jobs WHERE status = 'awaiting_approval' AND expires_at <= now()
                    ORDER BY expires_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, business_id, mode, reference, kind`);
      const job = rows[0];
      if (!job) return false;
      await tx.execute(sql`UPDATE upload_rows SET status = 'cancelled', finished_at = now() WHERE job_id = ${job.id} AND status = 'pending'`);
      await recordAudit(tx, {
        businessId: Number(job.business_id),
        mode: job.mode,
        actor: SYSTEM,
        action: 'upload.expired',
        target: job.reference,
        details: { kind: job.kind },
      });
      return true;
    });
    if (!expired) return false;
  }
  return true;
}

export const startUploadExpiry = (db: Db): Stop => backgroundLoop('upload expiry', EVERY_MS, () => expireUploads(db));
