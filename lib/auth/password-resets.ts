import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db, DbOrTx } from '../db/client';
import { businesses, passwordResets, users } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { mailConfigured, sendMail } from '../mail/send-mail';
import type { CreatedLink } from './invitations';
import { appUrl, linkTokenHash, newLinkToken } from '../link-token';
import { hashPassword } from './users';

/** Shorter than an invitation's 48 hours: this link replaces the password of an account that already exists. */
const RESET_HOURS = 24;

export interface CreatePasswordResetOptions {
  businessId: number;
  userId: number;
  createdBy: number;
  actor: Actor;
  /** The teammate asked for it from the sign-in page, not an owner from the Team page: the mail says so. */
  selfService?: boolean;
}

/** An owner's single-use link for a teammate to choose a new password; it replaces any earlier unused one of theirs. */
export async function createPasswordReset(db: Db, opts: CreatePasswordResetOptions): Promise<CreatedLink & { email: string }> {
  const { token, hash } = newLinkToken();
  const expiresAt = new Date(Date.now() + RESET_HOURS * 3600_000);
  const { email, businessName } = await inTransaction(db, async (tx) => {
    const [user] = await tx
      .select({ email: users.email, businessName: businesses.name })
      .from(users)
      .innerJoin(businesses, eq(businesses.id, users.businessId))
      .where(and(eq(users.id, opts.userId), eq(users.businessId, opts.businessId)));
    if (!user) throw new ServiceError('user_not_found', 'No user of this business has this id.');
    await tx.delete(passwordResets).where(and(eq(passwordResets.userId, opts.userId), isNull(passwordResets.usedAt)));
    await tx.insert(passwordResets).values({ businessId: opts.businessId, userId: opts.userId, tokenHash: hash, createdBy: opts.createdBy, expiresAt });
    await recordAudit(tx, { businessId: opts.businessId, mode: null, actor: opts.actor, action: 'user.reset_link_created', target: user.email });
    return user;
  });
  const link = `${appUrl()}/reset/${token}`;
  const mail = await sendMail({
    to: email,
    subject: `Choose a new password for ${businessName}'s gift card dashboard`,
    text: opts.selfService
      ? `Someone, we hope you, asked on the sign-in page for a link to choose a new password (it works once, for ${RESET_HOURS} hours):\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`
      : `An owner of ${businessName} made this link for you to choose a new password (it works once, for ${RESET_HOURS} hours):\n${link}\n\nIf you did not ask for it, tell them.\n`,
  });
  return { link, expiresAt: expiresAt.toISOString(), mail, email };
}

const validReset = (hash: string) => and(eq(passwordResets.tokenHash, hash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`));

export type PasswordResetView = { state: 'valid'; email: string; businessName: string } | { state: 'invalid' };

export async function findPasswordReset(db: DbOrTx, token: string): Promise<PasswordResetView> {
  const hash = linkTokenHash(token);
  if (!hash) return { state: 'invalid' };
  const [row] = await db
    .select({ email: users.email, businessName: businesses.name })
    .from(passwordResets)
    .innerJoin(users, and(eq(users.id, passwordResets.userId), eq(users.businessId, passwordResets.businessId)))
    .innerJoin(businesses, eq(businesses.id, passwordResets.businessId))
    .where(validReset(hash));
  return row ? { state: 'valid', ...row } : { state: 'invalid' };
}

/** Sets the new password and spends the link; two-factor sign-in, when on, stays on. */
export async function usePasswordReset(db: Db, opts: { token: string; password: string }): Promise<{ email: string }> {
  const hash = linkTokenHash(opts.token);
  const invalid = new ServiceError('not_found', 'This reset link is not valid: it was used, replaced or has expired. Ask an owner for a new one.');
  if (!hash) throw invalid;
  // bcrypt only for a live link: otherwise anyone could make the server hash passwords for made-up tokens.
  const [found] = await db.select({ id: passwordResets.id }).from(passwordResets).where(validReset(hash));
  if (!found) throw invalid;
  const passwordHash = await hashPassword(opts.password);
  return inTransaction(db, async (tx) => {
    const [reset] = await tx.update(passwordResets).set({ usedAt: sql`now()` }).where(validReset(hash)).returning();
    if (!reset) throw invalid;
    const [user] = await tx
      .update(users)
      .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(and(eq(users.id, reset.userId), eq(users.businessId, reset.businessId)))
      .returning({ email: users.email });
    if (!user) throw invalid;
    await recordAudit(tx, {
      businessId: reset.businessId,
      mode: null,
      actor: { type: 'user', id: String(reset.userId) },
      action: 'user.password_reset',
      target: user.email,
    });
    return user;
  });
}

/** One mailed link per account in this time at most, however often the form is sent: the form must not become a way to flood someone's inbox. */
const SELF_SERVICE_GAP_MINUTES = 10;

/**
 * "Forgot password?": mails a reset link to the account with this email, when mail is set up. Whether such an
 * account exists is never told (the page says the same either way), and a link asked for again within ten
 * minutes is not mailed again. Without SMTP nothing is made: the page tells the reader to ask an owner.
 */
export async function requestPasswordReset(db: Db, opts: { email: string }): Promise<void> {
  if (!mailConfigured()) return;
  const [user] = await db
    .select({ id: users.id, businessId: users.businessId })
    .from(users)
    .where(eq(sql`lower(${users.email})`, opts.email.trim().toLowerCase()));
  if (!user) return;
  const [recent] = await db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.userId, user.id),
        isNull(passwordResets.usedAt),
        gt(passwordResets.createdAt, sql`now() - make_interval(mins => ${SELF_SERVICE_GAP_MINUTES})`),
      ),
    );
  if (recent) return;
  await createPasswordReset(db, {
    businessId: user.businessId,
    userId: user.id,
    createdBy: user.id,
    actor: { type: 'user', id: String(user.id) },
    selfService: true,
  });
}
