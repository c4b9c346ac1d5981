import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Stop } from '../background-loop';
import { backgroundLoop } from '../background-loop';
import type { Db } from '../db/client';
import { payments } from '../db/schema';
import type { Actor } from '../actor';
import { FAILURE_REASONS } from '../providers/failure-reasons';
import { sandboxChargeOutcome } from '../providers/sandbox';
import { completePayment } from './complete-payment';
import { logger } from '../observability/logger';

const SANDBOX: Actor = { type: 'system', id: 'sandbox-wallet' };

/** Settles sandbox direct charges whose time has come; returns how many this call finished. */
async function settleDuePayments(db: Db, batch = 20): Promise<number> {
  const due = await db
    .select({ linkReference: payments.linkReference, phoneNumber: payments.phoneNumber })
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lte(payments.settleAfter, sql`now()`), eq(payments.mode, 'test'), eq(payments.type, 'direct-charge')))
    .orderBy(asc(payments.settleAfter))
    .limit(batch);
  let settled = 0;
  for (const p of due) {
    try {
      // skipLocked: with several app instances, a payment another one is settling is left to it.
      const outcome = sandboxChargeOutcome(p.phoneNumber);
      const result = await completePayment(db, {
        linkReference: p.linkReference,
        outcome,
        failureReason: outcome === 'failed' ? FAILURE_REASONS.walletDeclined : undefined,
        actor: SANDBOX,
        mode: 'test',
        skipLocked: true,
      });
      if (result.changed) settled++;
    } catch (err) {
      logger.error({ err }, `payment settlement of ${p.linkReference}`);
    }
  }
  return settled;
}

/** The background loop started with the server (lib/background.ts). */
export const startPaymentSettlement = (db: Db, intervalMs = 250): Stop =>
  backgroundLoop('payment settlement', intervalMs, async () => (await settleDuePayments(db)) > 0);
