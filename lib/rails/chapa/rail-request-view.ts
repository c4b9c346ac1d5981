import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { railRequests } from '../../db/schema';
import type { Mode } from '../../validation';

export interface ChapaTransferView {
  reference: string;
  chapaReference: string | null;
  /**
   * queued: not yet sent; sending: sent or being sent, answer not known; sent: Chapa has it; done: settled;
   * review: still unsettled REVIEW_AFTER_MS after it was queued, for a person to take up with Chapa (never refunded by itself).
   */
  state: 'queued' | 'sending' | 'sent' | 'done' | 'review';
  verifyStatus: string | null;
  verifiedAt: Date | null;
  attempts: number;
  nextAttemptAt: Date;
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
  return {
    reference: r.reference,
    chapaReference: r.providerReference,
    state: r.state !== 'done' && Date.now() - r.createdAt.getTime() > REVIEW_AFTER_MS ? 'review' : r.state,
    verifyStatus: r.providerStatus,
    verifiedAt: r.verifiedAt,
    attempts: r.attempts,
    nextAttemptAt: r.nextAttemptAt,
    lastError: r.lastError,
  };
}
