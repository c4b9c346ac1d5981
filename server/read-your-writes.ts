import 'server-only';
import { cookies } from 'next/headers';
import type { Db } from '@/lib/db/client';
import { readFromReplica, readSource, type ReadOptions, type ReadSource } from '@/lib/db/read-replica';

const WROTE_COOKIE = 'gc_wrote';
/** Past the longest lag a replica is read at (READ_REPLICA_MAX_LAG_MS, 30 s by default), any replica read has the write. */
const REMEMBER_WRITE_SECONDS = 600;

/** After a dashboard write: this user's pages read the primary until the replica has replayed past it. */
export async function markWrite(): Promise<void> {
  (await cookies()).set(WROTE_COOKIE, String(Date.now()), {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: REMEMBER_WRITE_SECONDS,
  });
}

async function lastWrite(): Promise<ReadOptions> {
  const at = Number((await cookies()).get(WROTE_COOKIE)?.value);
  return Number.isFinite(at) && at > 0 ? { wroteAt: at } : {};
}

/** A page's read that may be a little old: the replica once it has this user's last write; lagMs for its DataAgeNote. */
export async function pageRead<T>(read: (db: Db) => Promise<T>): Promise<{ value: T; lagMs: number }> {
  return readFromReplica(read, await lastWrite());
}

/** For a streamed export: the pool pageRead would use. */
export async function exportSource(): Promise<ReadSource> {
  return readSource(await lastWrite());
}
