import 'server-only';
import { eq } from 'drizzle-orm';
import { getServerSession } from 'next-auth';
import { cookies } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/lib/db/client';
import { businesses, users } from '@/lib/db/schema';
import { ServiceError } from '@/lib/errors';
import type { Mode } from '@/lib/validation';
import { authOptions } from '@/lib/auth/auth-options';
import { can, type Permission } from '@/lib/auth/permissions';
import type { Role } from '@/lib/auth/users';
import type { DashboardSession } from '@/lib/auth/session-types';
import { twoFactorFirst } from '@/lib/actions/define-action';

export const MODE_COOKIE = 'gc_mode';

export type { DashboardSession };

/**
 * The signed-in user as the database knows them now (a role change or removal
 * takes effect at once, not when the token expires), with the selected mode.
 * A token signed in before the user's last password or two-factor change
 * (its session version is older) counts as signed out.
 */
export const getDashboardSession = cache(async (): Promise<DashboardSession | null> => {
  const session = await getServerSession(authOptions);
  if (!session?.user?.id) return null;
  const [user] = await getDb()
    .select({
      id: users.id,
      email: users.email,
      businessId: users.businessId,
      role: users.role,
      timeZone: businesses.timeZone,
      country: businesses.country,
      requireTwoFactor: businesses.requireTwoFactor,
      totpEnabledAt: users.totpEnabledAt,
      sessionVersion: users.sessionVersion,
      language: users.language,
      calendar: users.calendar,
      locationId: users.locationId,
    })
    .from(users)
    .innerJoin(businesses, eq(businesses.id, users.businessId))
    .where(eq(users.id, Number(session.user.id)));
  if (!user || user.sessionVersion !== session.user.sessionVersion) return null;
  const mode: Mode = (await cookies()).get(MODE_COOKIE)?.value === 'live' ? 'live' : 'test';
  return {
    userId: user.id,
    email: user.email,
    businessId: user.businessId,
    role: user.role as Role,
    mode,
    timeZone: user.timeZone,
    country: user.country,
    language: user.language,
    calendar: user.calendar,
    actor: { type: 'user', id: String(user.id) },
    locationId: user.locationId,
    mustSetUpTwoFactor: user.requireTwoFactor && user.totpEnabledAt === null,
  };
});

const TWO_FACTOR_SETUP_PATH = '/account/two-factor';

/**
 * For pages: signed out goes to sign-in; a user the business requires to have
 * two-factor sign-in, without it, goes to its set-up (unless this is that page);
 * a role without the permission gets a 403 page.
 */
export async function requirePage(permission?: Permission, opts: { twoFactorSetup?: boolean } = {}): Promise<DashboardSession> {
  const session = await getDashboardSession();
  if (!session) redirect('/login');
  if (session.mustSetUpTwoFactor && !opts.twoFactorSetup) redirect(TWO_FACTOR_SETUP_PATH);
  if (permission && !can(session.role, permission)) forbidden();
  return session;
}

/** For server actions and route handlers: errors instead of redirects. */
export async function requireAction(permission: Permission): Promise<DashboardSession> {
  const session = await getDashboardSession();
  if (!session) throw new ServiceError('unauthorized', 'Your session has ended; sign in again.');
  if (session.mustSetUpTwoFactor) throw twoFactorFirst();
  if (!can(session.role, permission)) throw new ServiceError('forbidden', 'Your role does not allow this.');
  return session;
}
