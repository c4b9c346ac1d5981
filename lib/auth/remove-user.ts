import { and, eq } from 'drizzle-orm';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import type { Actor } from '../actor';
import { revokeLinksOf } from './revoke-links-of';
import { lockTeamMember } from './team-guard';

export interface RemoveUserOptions {
  businessId: number;
  userId: number;
  /** The user removing: nobody removes themselves. */
  byUserId: number;
  actor: Actor;
}

/** Deletes a dashboard account and ends the links it made; its sessions stop at the next request (sessions re-read the user). */
export async function removeUser(db: Db, opts: RemoveUserOptions) {
  if (opts.userId === opts.byUserId) throw new ServiceError('forbidden', 'You cannot remove yourself.');
  return inTransaction(db, async (tx) => {
    const { target, owners } = await lockTeamMember(tx, opts.businessId, opts.userId);
    if (target.role === 'owner' && owners <= 1) throw new ServiceError('forbidden', 'The business must keep at least one owner.');
    const revoked = await revokeLinksOf(tx, opts.businessId, target.id);
    await tx.delete(users).where(and(eq(users.id, target.id), eq(users.businessId, opts.businessId)));
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: null,
      actor: opts.actor,
      action: 'user.removed',
      target: target.email,
      details: { role: target.role, invitations_revoked: revoked.invitations, reset_links_revoked: revoked.resetLinks },
    });
    return { id: target.id, email: target.email };
  });
}
