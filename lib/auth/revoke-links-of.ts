import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { invitations, passwordResets } from '../db/schema';

/**
 * Ends the links a user made and nobody has used yet: pending invitations are revoked (kept for the record),
 * unused reset links deleted (as a newer link replaces one). Called in the transaction that removes the user or
 * takes their owner role away, so their links cannot outlive the power to make them.
 */
export async function revokeLinksOf(tx: DbOrTx, businessId: number, userId: number): Promise<{ invitations: number; resetLinks: number }> {
  const revoked = await tx
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(and(eq(invitations.businessId, businessId), eq(invitations.invitedBy, userId), isNull(invitations.usedAt), isNull(invitations.revokedAt)))
    .returning({ id: invitations.id });
  const deleted = await tx
    .delete(passwordResets)
    .where(and(eq(passwordResets.businessId, businessId), eq(passwordResets.createdBy, userId), isNull(passwordResets.usedAt)))
    .returning({ id: passwordResets.id });
  return { invitations: revoked.length, resetLinks: deleted.length };
}
