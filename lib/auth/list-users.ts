import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { users } from '../db/schema';

/** The team page: every dashboard account of the business (never the password hash or two-factor key). */
export async function listUsers(db: DbOrTx, businessId: number) {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      createdAt: users.createdAt,
      lastSignInAt: users.lastSignInAt,
      totpEnabledAt: users.totpEnabledAt,
    })
    .from(users)
    .where(eq(users.businessId, businessId))
    .orderBy(asc(users.createdAt), asc(users.id));
  return rows.map(({ totpEnabledAt, ...r }) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    lastSignInAt: r.lastSignInAt?.toISOString() ?? null,
    twoFactor: totpEnabledAt !== null,
  }));
}
