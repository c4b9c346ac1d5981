import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { logger } from '../observability/logger';
import { outsideRequest } from '../observability/request-context';
import { watchPool } from '../observability/metrics';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A database handle or an open transaction: core functions accept either. */
export type DbOrTx = Db | Tx;

// bigint columns fit in a JS number: the ledger CHECKs every balance against 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`bigint ${value} is beyond the safe integer range`);
  return n;
});

export function createDb(url: string, max = 10): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  pool.on('error', poolErrorLogger('postgres pool error', 'error'));
  return { db: drizzle(pool, { schema }), pool };
}

/**
 * Logs an idle client's error once, outside whichever request first opened the connection. PostgreSQL
 * ending its sessions as it shuts down (57P01 and its kin) is news, not a fault of ours: the pool opens new ones.
 */
export function poolErrorLogger(message: string, level: 'error' | 'warn'): (err: Error & { code?: string }) => void {
  return (err) =>
    outsideRequest(() => {
      if (err.code?.startsWith('57P')) logger.warn({ code: err.code, reason: err.message }, 'postgres ended an idle connection');
      else logger[level]({ err }, message);
    });
}

const globalForDb = globalThis as unknown as { __giftcardDb?: { db: Db; pool: pg.Pool } };

/** The app's shared handle, from DATABASE_URL (set by scripts/start.ts when embedded). */
export function getDb(): Db {
  if (!globalForDb.__giftcardDb) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set');
    globalForDb.__giftcardDb = createDb(url, Number(process.env.DB_POOL_SIZE ?? 20));
    watchPool('requests', globalForDb.__giftcardDb.pool);
  }
  return globalForDb.__giftcardDb.db;
}

/** Ends the app's shared pool, if one was opened: at shutdown, before the database it connects to may stop. */
export async function closeDb(): Promise<void> {
  const shared = globalForDb.__giftcardDb;
  globalForDb.__giftcardDb = undefined;
  await shared?.pool.end();
}
