'use server';

import { cookies } from 'next/headers';
import { MODE_COOKIE } from '../session';

/** The test/live switch: a cookie every page and action reads through getDashboardSession. */
export async function switchMode(mode: 'test' | 'live'): Promise<void> {
  (await cookies()).set(MODE_COOKIE, mode === 'live' ? 'live' : 'test', { httpOnly: true, sameSite: 'lax', path: '/' });
}
