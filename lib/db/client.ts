import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { logger } from '../observability/logger';
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
  pool.on('error', (err) => logger.error({ err }, 'postgres pool error'));
  return { db: drizzle(pool, { schema }), pool };
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
