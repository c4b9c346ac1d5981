import { eq } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import { expiryPolicySchema } from '../cards/expiry.validation';
import { type ExpiryPolicy, expiryPolicyOf } from '../cards/card-expiry';
import type { Db, DbOrTx } from '../db/client';
import { businesses } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { parseInput } from '../validation';

export interface BusinessExpiry {
  policy: ExpiryPolicy;
  timeZone: string;
}

/** The business's expiry policy and the time zone its days are counted in. */
export async function getBusinessExpiry(db: DbOrTx, businessId: number): Promise<BusinessExpiry> {
  const [row] = await db
    .select({ expiryPolicy: businesses.expiryPolicy, expiryMonths: businesses.expiryMonths, timeZone: businesses.timeZone })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!row) throw new ServiceError('not_found', 'No such business.');
  return { policy: expiryPolicyOf(row), timeZone: row.timeZone };
}

/**
 * The owner's choice. It applies to cards issued or loaded from now on: a
 * card's expiry date was shown when it was issued (and on the card since), so
 * a change never moves the date of a card already out.
 */
export async function setExpiryPolicy(db: Db, businessId: number, actor: Actor, input: unknown): Promise<ExpiryPolicy> {
  const parsed = parseInput(expiryPolicySchema, input);
  const next: ExpiryPolicy = parsed.policy === 'never' ? { kind: 'never' } : { kind: parsed.policy, months: parsed.months! };
  return inTransaction(db, async (tx) => {
    const [before] = await tx
      .select({ expiryPolicy: businesses.expiryPolicy, expiryMonths: businesses.expiryMonths })
      .from(businesses)
      .where(eq(businesses.id, businessId))
      .for('update');
    if (!before) throw new ServiceError('not_found', 'No such business.');
    const months = next.kind === 'never' ? null : next.months;
    if (before.expiryPolicy === next.kind && before.expiryMonths === months) return next;
    await tx.update(businesses).set({ expiryPolicy: next.kind, expiryMonths: months }).where(eq(businesses.id, businessId));
    await recordAudit(tx, {
      businessId,
      mode: null,
      actor,
      action: 'business.expiry_policy_changed',
      details: { from: { policy: before.expiryPolicy, months: before.expiryMonths }, to: { policy: next.kind, months } },
    });
    return next;
  });
}
