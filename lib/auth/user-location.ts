import { and, asc, eq } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db, DbOrTx } from '../db/client';
import { users } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { requireLocation } from '../locations/locations';
import { lockTeamMember } from './team-guard';

export interface SetUserLocationOptions {
  businessId: number;
  userId: number;
  /** null unties the teammate from any branch. */
  locationId: number | null;
  actor: Actor;
}

/** Ties a teammate to one of the business's branches: a cashier's till money is recorded there from their next step. */
export async function setUserLocation(db: Db, opts: SetUserLocationOptions) {
  const location = opts.locationId === null ? null : await requireLocation(db, opts.businessId, opts.locationId);
  return inTransaction(db, async (tx) => {
    const { target } = await lockTeamMember(tx, opts.businessId, opts.userId);
    await tx
      .update(users)
      .set({ locationId: location?.id ?? null })
      .where(and(eq(users.id, target.id), eq(users.businessId, opts.businessId)));
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: null,
      actor: opts.actor,
      action: 'user.location_changed',
      target: target.email,
      details: { location_id: location?.id ?? null, location: location?.name ?? null },
    });
    return { id: target.id, location_id: location?.id ?? null };
  });
}

/** Each teammate's branch, for the Team page. */
export async function listUserLocations(db: DbOrTx, businessId: number) {
  return db
    .select({ id: users.id, email: users.email, role: users.role, locationId: users.locationId })
    .from(users)
    .where(eq(users.businessId, businessId))
    .orderBy(asc(users.createdAt), asc(users.id));
}
