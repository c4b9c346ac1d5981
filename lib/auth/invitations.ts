import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db, DbOrTx } from '../db/client';
import { businesses, invitations, locations, users } from '../db/schema';
import { inTransaction, pgConstraint } from '../db/transaction';
import { ServiceError } from '../errors';
import { type MailOutcome, sendMail } from '../mail/send-mail';
import { appUrl, linkTokenHash, newLinkToken } from '../link-token';
import { listLocations, requireLocation } from '../locations/locations';
import { hashPassword, type Role } from './users';

const INVITATION_HOURS = 48;

export interface CreateInvitationOptions {
  businessId: number;
  email: string;
  role: Role;
  /** The branch the teammate will be tied to (another business's is not found); a cashier needs one when the business has branches. */
  locationId?: number | null;
  invitedBy: number;
  actor: Actor;
}

export interface CreatedLink {
  /** The whole link, shown once to copy; only its hash is kept. */
  link: string;
  expiresAt: string;
  mail: MailOutcome;
}

const cashierNeedsBranch = () =>
  new ServiceError('validation_error', { location_id: 'Choose the branch this cashier works at: their spends are recorded there.' });

const emailTaken = () =>
  new ServiceError('validation_error', { email: 'This email already has an account; ask them to sign in, or to ask their own business to remove it.' });

async function emailHasAccount(db: DbOrTx, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email));
  return Boolean(row);
}

/**
 * A single-use link to join the business with a role, valid 48 hours. A new
 * invitation to the same email replaces a pending one. Mailed when SMTP_URL is set.
 */
export async function createInvitation(db: Db, opts: CreateInvitationOptions): Promise<CreatedLink & { email: string; role: Role; location: string | null }> {
  const email = opts.email.trim().toLowerCase();
  const { token, hash } = newLinkToken();
  const expiresAt = new Date(Date.now() + INVITATION_HOURS * 3600_000);
  const location = opts.locationId == null ? null : await requireLocation(db, opts.businessId, opts.locationId);
  // A cashier with no branch would record every spend at none, out of every branch's figures: one is chosen for them.
  if (opts.role === 'cashier' && !location && (await listLocations(db, opts.businessId)).length > 0) throw cashierNeedsBranch();
  const businessName = await inTransaction(db, async (tx) => {
    if (await emailHasAccount(tx, email)) throw emailTaken();
    await tx
      .update(invitations)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(invitations.businessId, opts.businessId), eq(invitations.email, email), isNull(invitations.usedAt), isNull(invitations.revokedAt)));
    await tx
      .insert(invitations)
      .values({ businessId: opts.businessId, email, role: opts.role, tokenHash: hash, invitedBy: opts.invitedBy, expiresAt, locationId: location?.id ?? null });
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: null,
      actor: opts.actor,
      action: 'user.invited',
      target: email,
      details: { role: opts.role, ...(location && { location_id: location.id, location: location.name }) },
    });
    const [biz] = await tx.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, opts.businessId));
    return biz?.name ?? 'a business';
  });
  const link = `${appUrl()}/invite/${token}`;
  const mail = await sendMail({
    to: email,
    subject: `You are invited to ${businessName}'s gift card dashboard`,
    text: `You have been invited to join ${businessName} as ${opts.role}${location ? ` at ${location.name}` : ''}.\n\nChoose your password here (the link works once, for ${INVITATION_HOURS} hours):\n${link}\n`,
  });
  return { link, expiresAt: expiresAt.toISOString(), mail, email, role: opts.role, location: location?.name ?? null };
}

export interface PendingInvitation {
  id: number;
  email: string;
  role: string;
  /** The branch the teammate will be tied to, by name. */
  location: string | null;
  createdAt: string;
  expiresAt: string;
}

/** Invitations not yet accepted, revoked or expired, newest first. */
export async function listPendingInvitations(db: DbOrTx, businessId: number): Promise<PendingInvitation[]> {
  const rows = await db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      location: locations.name,
      createdAt: invitations.createdAt,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .leftJoin(locations, eq(locations.id, invitations.locationId))
    .where(and(eq(invitations.businessId, businessId), isNull(invitations.usedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, sql`now()`)))
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), expiresAt: r.expiresAt.toISOString() }));
}

export async function revokeInvitation(db: Db, opts: { businessId: number; invitationId: number; actor: Actor }): Promise<{ email: string }> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(invitations.id, opts.invitationId), eq(invitations.businessId, opts.businessId), isNull(invitations.usedAt), isNull(invitations.revokedAt)))
      .returning({ email: invitations.email, role: invitations.role });
    if (!row) throw new ServiceError('not_found', 'No pending invitation of this business has this id.');
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: null,
      actor: opts.actor,
      action: 'user.invitation_revoked',
      target: row.email,
      details: { role: row.role },
    });
    return { email: row.email };
  });
}

export type InvitationView =
  | { state: 'valid'; email: string; role: string; location: string | null; businessName: string; expiresAt: string }
  | { state: 'invalid' };

const invalidLink = () => new ServiceError('not_found', 'This invitation link is not valid: it was used, revoked or has expired. Ask the owner for a new one.');

/** What the invitation page shows; used, revoked, expired and unknown links all read alike. */
export async function findInvitation(db: DbOrTx, token: string): Promise<InvitationView> {
  const hash = linkTokenHash(token);
  if (!hash) return { state: 'invalid' };
  const [row] = await db
    .select({ email: invitations.email, role: invitations.role, location: locations.name, expiresAt: invitations.expiresAt, businessName: businesses.name })
    .from(invitations)
    .innerJoin(businesses, eq(businesses.id, invitations.businessId))
    .leftJoin(locations, eq(locations.id, invitations.locationId))
    .where(and(eq(invitations.tokenHash, hash), isNull(invitations.usedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, sql`now()`)));
  if (!row) return { state: 'invalid' };
  return { state: 'valid', email: row.email, role: row.role, location: row.location, businessName: row.businessName, expiresAt: row.expiresAt.toISOString() };
}

/** The invitee chooses a password: the account is made and the link spent, in one transaction. */
export async function acceptInvitation(
  db: Db,
  opts: { token: string; password: string },
): Promise<{ id: number; email: string; role: Role; businessId: number; locationId: number | null }> {
  const hash = linkTokenHash(opts.token);
  if (!hash) throw invalidLink();
  const live = and(eq(invitations.tokenHash, hash), isNull(invitations.usedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, sql`now()`));
  // bcrypt only for a live link: otherwise anyone could make the server hash passwords for made-up tokens.
  const [found] = await db.select({ id: invitations.id }).from(invitations).where(live);
  if (!found) throw invalidLink();
  const passwordHash = await hashPassword(opts.password);
  return inTransaction(db, async (tx) => {
    // Spending the link first, under its row lock, makes two simultaneous acceptances one.
    const [inv] = await tx.update(invitations).set({ usedAt: sql`now()` }).where(live).returning();
    if (!inv) throw invalidLink();
    if (await emailHasAccount(tx, inv.email)) throw emailTaken();
    const [branch] =
      inv.locationId === null ? [] : await tx.select({ id: locations.id, name: locations.name }).from(locations).where(eq(locations.id, inv.locationId));
    let user: { id: number };
    try {
      [user] = await tx
        .insert(users)
        .values({ businessId: inv.businessId, email: inv.email, passwordHash, role: inv.role, locationId: inv.locationId })
        .returning({ id: users.id });
    } catch (err) {
      if (pgConstraint(err) === 'users_email_unique') throw emailTaken();
      throw err;
    }
    await recordAudit(tx, {
      businessId: inv.businessId,
      mode: null,
      actor: { type: 'user', id: String(user.id) },
      action: 'user.joined',
      target: inv.email,
      details: { role: inv.role, invited_by: inv.invitedBy, ...(branch && { location_id: branch.id, location: branch.name }) },
    });
    return { id: user.id, email: inv.email, role: inv.role as Role, businessId: inv.businessId, locationId: inv.locationId };
  });
}
