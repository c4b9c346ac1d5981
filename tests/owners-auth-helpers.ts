import { randomUUID } from 'node:crypto';
import { expect, inject } from 'vitest';
import type { DashboardSession } from '../lib/auth/session-types';
import type { Role } from '../lib/auth/users';
import { adminClient } from './helpers';

export const PASSWORD = 'dashboard-pass-123';

/** A user made through the back office, with the session the dashboard would build for them. */
export async function userOf(businessId: number, role: Role, password = PASSWORD): Promise<DashboardSession> {
  const email = `${role}-${randomUUID()}@example.com`;
  const res = await adminClient().post(`/api/admin/businesses/${businessId}/users`, { email, password, role });
  expect(res.status).toBe(201);
  const userId = res.body.data.id as number;
  return {
    userId,
    email,
    businessId,
    role,
    mode: 'test',
    timeZone: 'Africa/Addis_Ababa',
    country: 'ET',
    actor: { type: 'user', id: String(userId) },
  };
}

/** The token at the end of an invitation or reset link. */
export const tokenOf = (link: string) => link.split('/').pop()!;

/**
 * A sign-in through next-auth's credentials callback over HTTP, as the login form does it:
 * the session cookie when it signed in, else next-auth's error code.
 */
export async function signInOverHttp(
  email: string,
  password: string,
  code?: string,
  base = inject('baseUrl'),
): Promise<{ cookie: string | null; error: string | null }> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = csrf.headers.getSetCookie().map((c) => c.split(';')[0]);
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; ') },
    body: new URLSearchParams({ csrfToken, email, password, ...(code && { code }), json: 'true' }).toString(),
  });
  const session = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('next-auth.session-token=') && c.length > 'next-auth.session-token='.length);
  const body = (await res.json()) as { url: string };
  return { cookie: session ?? null, error: new URL(body.url).searchParams.get('error') };
}

/** A dashboard page or route fetched with a session cookie, redirects not followed. */
export async function getWithSession(path: string, cookie: string) {
  const res = await fetch(`${inject('baseUrl')}${path}`, { redirect: 'manual', headers: { cookie } });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}
