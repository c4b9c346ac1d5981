import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { railRequests } from '../../db/schema';
import { jobOf } from '../../jobs/job-queue';
import type { Mode } from '../../validation';

export interface ChapaTransferView {
  reference: string;
  chapaReference: string | null;
  /**
   * queued: not yet sent; sending: sent or being sent, answer not known; sent: Chapa has it; done: settled;
   * review: still unsettled REVIEW_AFTER_MS after it was queued, for a person to take up with Chapa (never refunded by itself);
   * dead: its job had all its tries without an answer that ends it, and is no longer retried (a webhook about it wakes it).
   */
  state: 'queued' | 'sending' | 'sent' | 'done' | 'review' | 'dead';
  verifyStatus: string | null;
  verifiedAt: Date | null;
  /** Tries of the job's current stage (sending, then verifying) and when the next comes. */
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
}

/** A transfer Chapa has not settled after a day (a resend refused while verify does not know it, say) is flagged for a person. */
const REVIEW_AFTER_MS = 24 * 60 * 60 * 1000;

/** The provider's side of one of the business's live payouts, or null when it never went to Chapa. */
export async function chapaTransferOf(db: Db, businessId: number, mode: Mode, reference: string): Promise<ChapaTransferView | null> {
  const [r] = await db
    .select()
    .from(railRequests)
    .where(and(eq(railRequests.businessId, businessId), eq(railRequests.mode, mode), eq(railRequests.reference, reference)));
  if (!r) return null;
  const job = await jobOf(db, 'rail_request', r.reference);
  const dead = r.state !== 'done' && job?.state === 'dead';
  return {
    reference: r.reference,
    chapaReference: r.providerReference,
    state: dead ? 'dead' : r.state !== 'done' && Date.now() - r.createdAt.getTime() > REVIEW_AFTER_MS ? 'review' : r.state,
    verifyStatus: r.providerStatus,
    verifiedAt: r.verifiedAt,
    attempts: job?.attempts ?? 0,
    nextAttemptAt: job?.state === 'pending' ? job.runAt : null,
    lastError: r.lastError ?? (dead ? job.lastError : null),
  };
}
