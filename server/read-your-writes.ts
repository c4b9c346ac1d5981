import 'server-only';
import { cookies } from 'next/headers';
import type { Db } from '@/lib/db/client';
import { readFromReplica, readSource, type ReadSource } from '@/lib/db/read-replica';

const WROTE_COOKIE = 'gc_wrote';
/** Long enough for the replica to replay a write before the user's next page reads it there. */
const READ_YOUR_WRITES_SECONDS = 5;

/** After a dashboard write: this user's pages read the primary for a few seconds. */
export async function markWrite(): Promise<void> {
  (await cookies()).set(WROTE_COOKIE, String(Date.now() + READ_YOUR_WRITES_SECONDS * 1000), {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: READ_YOUR_WRITES_SECONDS,
  });
}

async function wroteRecently(): Promise<boolean> {
  const until = Number((await cookies()).get(WROTE_COOKIE)?.value);
  return Number.isFinite(until) && until > Date.now();
}

/** A page's read that may be a little old: the replica unless the user just wrote; lagMs for its DataAgeNote. */
export async function pageRead<T>(read: (db: Db) => Promise<T>): Promise<{ value: T; lagMs: number }> {
  return readFromReplica(read, { fresh: await wroteRecently() });
}

/** For a streamed export: the pool pageRead would use. */
export async function exportSource(): Promise<ReadSource> {
  return readSource({ fresh: await wroteRecently() });
}
