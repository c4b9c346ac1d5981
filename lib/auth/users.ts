import bcrypt from 'bcryptjs';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client';
import { users } from '../db/schema';
import { pgConstraint } from '../db/transaction';
import { ServiceError } from '../errors';
import { parseInput } from '../validation';
import { locationIdSchema } from '../locations/location-request';
import { requireLocation } from '../locations/locations';
import { passwordSchema } from './password-rules';

const ROLES = ['owner', 'operator', 'finance', 'support', 'cashier'] as const;
export type Role = (typeof ROLES)[number];

export const newUserSchema = z.object({
  email: z
    .email({ error: 'Enter an email address, like name@example.com.' })
    .max(254)
    .transform((e) => e.toLowerCase()),
  password: passwordSchema,
  role: z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}.` }),
  /** The branch the teammate works at; a cashier's redemptions and holds are recorded there. */
  location_id: locationIdSchema.nullable().optional(),
});

export async function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, 10);
}

/** A dashboard account of a business; emails are unique across the service. */
export async function createUser(db: DbOrTx, businessId: number, input: unknown) {
  const { email, password, role, location_id } = parseInput(newUserSchema, input);
  const locationId = location_id == null ? null : (await requireLocation(db, businessId, location_id)).id;
  try {
    const [row] = await db
      .insert(users)
      .values({ businessId, email, passwordHash: await hashPassword(password), role, locationId })
      .returning({ id: users.id, email: users.email, role: users.role, businessId: users.businessId, locationId: users.locationId });
    return { id: row.id, email: row.email, role: row.role, business_id: row.businessId, location_id: row.locationId };
  } catch (err) {
    if (pgConstraint(err) === 'users_email_unique') throw new ServiceError('validation_error', { email: 'A user with this email already exists.' });
    throw err;
  }
}

/** The user whose password this is, or null; the same work is done for unknown emails so timing tells nothing. */
export async function checkPassword(db: DbOrTx, email: string, password: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()));
  const ok = await bcrypt.compare(password, row?.passwordHash ?? '$2a$10$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva');
  if (!ok || !row) return null;
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    businessId: row.businessId,
    twoFactor: row.totpEnabledAt !== null,
    sessionVersion: row.sessionVersion,
  };
}

/** The team page shows it; a sign-in is rare enough to write each one. */
export async function recordSignIn(db: DbOrTx, userId: number): Promise<void> {
  await db.update(users).set({ lastSignInAt: sql`now()` }).where(eq(users.id, userId));
}
