import { and, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../audit';
import type { Db, DbOrTx } from '../db/client';
import { approvalThresholds } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { CURRENCIES, type Currency, type Mode } from '../validation';

export interface SetApprovalThresholdOptions {
  businessId: number;
  mode: Mode;
  userId: number;
  currency: Currency;
  /** Minor units; null removes the threshold (dashboard payouts of that currency then need no approval). */
  amount: number | null;
}

/** The owner's threshold for one currency, set or removed, with its audit line. */
export async function setApprovalThreshold(db: Db, opts: SetApprovalThresholdOptions): Promise<void> {
  const actor = { type: 'user' as const, id: String(opts.userId) };
  await inTransaction(db, async (tx) => {
    const where = and(
      eq(approvalThresholds.businessId, opts.businessId),
      eq(approvalThresholds.mode, opts.mode),
      eq(approvalThresholds.currency, opts.currency),
    );
    if (opts.amount === null) await tx.delete(approvalThresholds).where(where);
    else {
      await tx
        .insert(approvalThresholds)
        .values({ businessId: opts.businessId, mode: opts.mode, currency: opts.currency, amount: opts.amount, updatedBy: opts.userId })
        .onConflictDoUpdate({
          target: [approvalThresholds.businessId, approvalThresholds.mode, approvalThresholds.currency],
          set: { amount: opts.amount, updatedBy: opts.userId, updatedAt: sql`now()` },
        });
    }
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: opts.mode,
      actor,
      action: 'approval.threshold_set',
      target: opts.currency,
      details: { currency: opts.currency, amount: opts.amount },
    });
  });
}

/** Every currency's threshold of a business and mode, null where none is set. */
export async function approvalThresholdsOf(db: DbOrTx, businessId: number, mode: Mode): Promise<Record<Currency, number | null>> {
  const rows = await db
    .select({ currency: approvalThresholds.currency, amount: approvalThresholds.amount })
    .from(approvalThresholds)
    .where(and(eq(approvalThresholds.businessId, businessId), eq(approvalThresholds.mode, mode)));
  const out = Object.fromEntries(CURRENCIES.map((c) => [c, null])) as Record<Currency, number | null>;
  for (const r of rows) out[r.currency] = Number(r.amount);
  return out;
}

/** The rule, in one place: a dashboard payout at or above its currency's threshold waits for a second person. */
export async function payoutNeedsApproval(db: DbOrTx, opts: { businessId: number; mode: Mode; currency: Currency; amount: number }): Promise<boolean> {
  const [row] = await db
    .select({ amount: approvalThresholds.amount })
    .from(approvalThresholds)
    .where(and(eq(approvalThresholds.businessId, opts.businessId), eq(approvalThresholds.mode, opts.mode), eq(approvalThresholds.currency, opts.currency)));
  return row !== undefined && opts.amount >= Number(row.amount);
}
