import { eq } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { businesses } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { twoFactorEnabled } from './two-factor';

/** The owner's switch: with it on, a user without two-factor sign-in can do nothing but set it up. */
export async function setTwoFactorRequired(
  db: Db,
  opts: { businessId: number; byUserId: number; actor: Actor; required: boolean },
): Promise<{ required: boolean }> {
  const { businessId, actor, required } = opts;
  // The owner who requires it shows it works for them first, rather than being sent to set it up mid-change.
  if (required && !(await twoFactorEnabled(db, opts.byUserId))) {
    throw new ServiceError('forbidden', 'Turn on two-factor sign-in for yourself first, on your account page.');
  }
  return inTransaction(db, async (tx) => {
    const [before] = await tx.select({ required: businesses.requireTwoFactor }).from(businesses).where(eq(businesses.id, businessId)).for('update');
    if (!before) throw new ServiceError('not_found', 'No such business.');
    if (before.required === required) return { required };
    await tx.update(businesses).set({ requireTwoFactor: required }).where(eq(businesses.id, businessId));
    await recordAudit(tx, { businessId, mode: null, actor, action: 'business.two_factor_required', details: { required } });
    return { required };
  });
}

export async function isTwoFactorRequired(db: Db, businessId: number): Promise<boolean> {
  const [row] = await db.select({ required: businesses.requireTwoFactor }).from(businesses).where(eq(businesses.id, businessId));
  return row?.required ?? false;
}
