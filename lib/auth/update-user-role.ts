import { and, eq } from 'drizzle-orm';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import type { Actor } from '../actor';
import { revokeLinksOf } from './revoke-links-of';
import { lockTeamMember } from './team-guard';
import type { Role } from './users';

export interface UpdateUserRoleOptions {
  businessId: number;
  userId: number;
  role: Role;
  /** The user making the change: nobody changes their own role. */
  byUserId: number;
  actor: Actor;
}

/** A new role for a user of the business; the last owner is never demoted, and a former owner's unused links end. */
export async function updateUserRole(db: Db, opts: UpdateUserRoleOptions) {
  if (opts.userId === opts.byUserId) throw new ServiceError('validation_error', { role: 'You cannot change your own role; ask another owner.' });
  return inTransaction(db, async (tx) => {
    const { target, owners } = await lockTeamMember(tx, opts.businessId, opts.userId);
    if (target.role === opts.role) return { id: target.id, email: target.email, role: target.role };
    if (target.role === 'owner' && owners <= 1) throw new ServiceError('validation_error', { role: 'The business must keep at least one owner.' });
    await tx
      .update(users)
      .set({ role: opts.role })
      .where(and(eq(users.id, target.id), eq(users.businessId, opts.businessId)));
    const revoked = target.role === 'owner' ? await revokeLinksOf(tx, opts.businessId, target.id) : null;
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: null,
      actor: opts.actor,
      action: 'user.role_changed',
      target: target.email,
      details: {
        from: target.role,
        to: opts.role,
        ...(revoked && { invitations_revoked: revoked.invitations, reset_links_revoked: revoked.resetLinks }),
      },
    });
    return { id: target.id, email: target.email, role: opts.role };
  });
}
