import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { cardExpiresAt, expiryPolicyOf, type ExpiryPolicyKind } from './card-expiry';

/**
 * A load (a payment, a ledger top-up, a credit adjustment: every postCardCredit)
 * moves the expiry of the credited cards whose business counts from the last
 * load. Runs in the crediting transaction, so the date moves exactly when the
 * money arrives; an expired card is never revived, and a load never brings a
 * date nearer (an audited extension, or a longer term of an earlier policy,
 * stands).
 */
export async function renewCardExpiry(tx: DbOrTx, creditedAccountIds: number[]): Promise<void> {
  if (creditedAccountIds.length === 0) return;
  const ids = sql.join(
    creditedAccountIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const { rows } = await tx.execute<{ id: number; expiry_policy: ExpiryPolicyKind; expiry_months: number | null; time_zone: string; now: Date | string }>(sql`
    SELECT c.id, b.expiry_policy, b.expiry_months, b.time_zone, now() AS now
    FROM cards c JOIN businesses b ON b.id = c.business_id
    WHERE c.account_id IN (${ids}) AND b.expiry_policy = 'after_last_load' AND c.expired_at IS NULL AND c.cancelled_at IS NULL`);
  for (const r of rows) {
    const at = cardExpiresAt(expiryPolicyOf({ expiryPolicy: r.expiry_policy, expiryMonths: r.expiry_months }), new Date(r.now), r.time_zone);
    if (!at) continue;
    await tx.execute(sql`
      UPDATE cards SET expires_at = CASE WHEN expires_at IS NULL THEN ${at.toISOString()}::timestamptz ELSE greatest(expires_at, ${at.toISOString()}::timestamptz) END
      WHERE id = ${r.id}`);
  }
}
