import bcrypt from 'bcryptjs';
import { and, eq, sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { passwordSchema } from './password-rules';
import { withSecondFactorLimit } from './two-factor';
import { hashPassword } from './users';

export interface ChangePasswordOptions {
  userId: number;
  businessId: number;
  currentPassword: string;
  newPassword: string;
  actor: Actor;
}

/**
 * A user's own new password, given the current one; the new password's rule is checked here, beside the current
 * password, so the form hears of both problems together. Wrong current passwords count against the same per-user
 * limit as wrong second factors; every session of the user, this one included, ends.
 */
export async function changePassword(db: Db, opts: ChangePasswordOptions): Promise<void> {
  const [row] = await db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, opts.userId), eq(users.businessId, opts.businessId)));
  if (!row) throw new ServiceError('user_not_found', 'No such user.');
  // Every problem at once: a short new password does not hide a wrong current one until the next try.
  const problems: Record<string, string> = {};
  const rule = passwordSchema.safeParse(opts.newPassword);
  if (!rule.success) problems.new_password = rule.error.issues[0].message;
  if (!(await withSecondFactorLimit(db, opts.userId, () => bcrypt.compare(opts.currentPassword, row.passwordHash)))) {
    problems.current_password = 'This is not your current password.';
  } else if (rule.success && opts.currentPassword === opts.newPassword) {
    problems.new_password = 'Choose a password other than the current one.';
  }
  if (Object.keys(problems).length > 0) throw new ServiceError('validation_error', problems);
  const passwordHash = await hashPassword(opts.newPassword);
  await inTransaction(db, async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, opts.userId));
    await recordAudit(tx, { businessId: opts.businessId, mode: null, actor: opts.actor, action: 'user.password_changed', target: row.email });
  });
}
