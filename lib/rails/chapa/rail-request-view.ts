import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { railRequests } from '../../db/schema';
import { jobOf } from '../../jobs/job-queue';
import type { ProviderTransfer } from '../../providers/provider-records';
import type { Mode } from '../../validation';

/** A transfer Chapa has not settled after a day (a resend refused while verify does not know it, say) is flagged for a person. */
const REVIEW_AFTER_MS = 24 * 60 * 60 * 1000;

/** The provider's side of one of the business's live payouts, or null when it never went to Chapa. */
export async function chapaTransferOf(
  db: Db,
  { businessId, mode, reference }: { businessId: number; mode: Mode; reference: string },
): Promise<ProviderTransfer | null> {
  const [r] = await db
    .select()
    .from(railRequests)
    .where(and(eq(railRequests.businessId, businessId), eq(railRequests.mode, mode), eq(railRequests.reference, reference)));
  if (!r) return null;
  const job = await jobOf(db, 'rail_request', r.reference);
  const dead = r.state !== 'done' && job?.state === 'dead';
  return {
    reference: r.reference,
    providerReference: r.providerReference,
    state: dead ? 'dead' : r.state !== 'done' && Date.now() - r.createdAt.getTime() > REVIEW_AFTER_MS ? 'review' : r.state,
    verifyStatus: r.providerStatus,
    verifiedAt: r.verifiedAt,
    attempts: job?.attempts ?? 0,
    nextAttemptAt: job?.state === 'pending' ? job.runAt : null,
    lastError: r.lastError ?? (dead ? job.lastError : null),
  };
}
