import { createHash } from 'node:crypto';
import { is, Param, Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { DbOrTx } from './client';

const dialect = new PgDialect();

/**
 * A statement built once: its text, with each named placeholder numbered once
 * however often it appears, and what fills each number: a placeholder's value
 * or a constant of the text.
 */
export interface Compiled {
  name: string;
  text: string;
  slots: ({ placeholder: string } | { value: unknown })[];
}

function placeholderName(param: unknown): string | undefined {
  if (is(param, Placeholder)) return param.name;
  if (is(param, Param) && is(param.value, Placeholder)) return param.value.name;
  return undefined;
}

/**
 * Compiles a query whose varying values are `sql.placeholder(name)`s. Hot
 * paths compile once per shape and then only fill values: drizzle's building
 * of the text was a tenth of a payout's Node.js time.
 */
export function compile(query: SQL): Compiled {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const slots: Compiled['slots'] = [];
  const numbers = new Map<string, number>();
  const renumbered = params.map((param) => {
    const name = placeholderName(param);
    if (name === undefined) return slots.push({ value: param });
    if (!numbers.has(name)) numbers.set(name, slots.push({ placeholder: name }));
    return numbers.get(name)!;
  });
  let seen = 0;
  const deduped = text.replace(/\$(\d+)/g, (_, n: string) => {
    seen++;
    return `$${renumbered[Number(n) - 1]}`;
  });
  if (seen !== params.length) throw new Error(`compiled statement has ${seen} parameter marks for ${params.length} parameters`);
  return { name: `q_${createHash('sha1').update(deduped).digest('hex').slice(0, 24)}`, text: deduped, slots };
}

/** Compiles on first use: for a module-level statement. */
export function compiledOnce(build: () => SQL): () => Compiled {
  let compiled: Compiled | undefined;
  return () => (compiled ??= compile(build()));
}

/**
 * Behind a pooler in transaction mode (DATABASE_POOLER=transaction: PgBouncer
 * before 1.21, which does not track prepared statements) the next call may
 * reach another server connection, where a named statement was never
 * prepared: there every call parses and plans afresh, unnamed.
 */
const namedStatements = () => process.env.DATABASE_POOLER !== 'transaction';

/**
 * Runs a compiled statement as a named prepared statement, on the pool or on
 * the open transaction's connection: PostgreSQL parses and plans it once per
 * connection rather than on every call.
 */
export async function runCompiled<T>(db: DbOrTx, statement: Compiled, values: Record<string, unknown>): Promise<{ rows: T[]; rowCount: number | null }> {
  const args = statement.slots.map((slot) => {
    if ('value' in slot) return slot.value;
    const value = values[slot.placeholder];
    if (value === undefined) throw new Error(`no value for placeholder ${slot.placeholder}`);
    return value;
  });
  // drizzle's node-postgres session holds the pool, or in a transaction the connection it runs on.
  const client = (db as unknown as { session?: { client?: pg.Pool | pg.PoolClient } }).session?.client;
  if (!client) throw new Error('runCompiled needs a node-postgres drizzle handle');
  const result = await client.query({ name: namedStatements() ? statement.name : undefined, text: statement.text, values: args });
  return result as unknown as { rows: T[]; rowCount: number | null };
}
