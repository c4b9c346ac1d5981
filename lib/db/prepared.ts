import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { DbOrTx } from './client';

const dialect = new PgDialect();
const names = new Map<string, string>();
const MAX_NAMES = 500;

/**
 * Runs a query as a named prepared statement on a pooled connection, so
 * PostgreSQL parses and plans it once per connection rather than on every
 * call. For hot paths whose text never varies with the data (values are
 * parameters). Inside a transaction it runs as a plain query.
 */
export async function executePrepared<T extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<pg.QueryResult<T>> {
  const pool = (db as { $client?: pg.Pool }).$client;
  if (!pool) return db.execute(query) as unknown as Promise<pg.QueryResult<T>>;
  const { sql: text, params } = dialect.sqlToQuery(query);
  let name = names.get(text);
  if (!name && names.size < MAX_NAMES) {
    name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return pool.query({ name, text, values: params as unknown[] }) as unknown as Promise<pg.QueryResult<T>>;
}
