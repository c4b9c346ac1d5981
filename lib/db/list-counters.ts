import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './client';
import { listCounters } from './schema';

const SHARDS = 64;

export type CounterKind = 'cards' | 'payouts' | 'transfers' | 'payments' | 'events';

// A connection's writers share one shard, so writers on different connections rarely wait on one row.
const connectionShard = sql.raw(`pg_backend_pid() % ${SHARDS}`);

/** Adjusts a list total inside the writer's transaction; shards keep writers off one hot row. */
export async function bumpCounter(tx: DbOrTx, businessId: number, mode: string, kind: CounterKind, delta: number) {
  await tx
    .insert(listCounters)
    .values({ businessId, mode, kind, shard: connectionShard, count: delta })
    .onConflictDoUpdate({
      target: [listCounters.businessId, listCounters.mode, listCounters.kind, listCounters.shard],
      set: { count: sql`${listCounters.count} + ${delta}` },
    });
}

/**
 * The same increment as a statement, for writers that fold it into a CTE to
 * save a round trip; with `perRowOf`, by that CTE's row count (nothing when it
 * has none): a statement that writes many rows counts them in one increment.
 * The business and mode are the placeholders `businessId` and `mode`.
 */
export function counterIncrement(kind: CounterKind, perRowOf?: string): SQL {
  return sql`INSERT INTO list_counters (business_id, mode, kind, shard, count)
    SELECT ${sql.placeholder('businessId')}, ${sql.placeholder('mode')}, ${kind}, ${connectionShard}, ${
      perRowOf ? sql`count(*) FROM ${sql.identifier(perRowOf)} HAVING count(*) > 0` : sql`1`
    }
    ON CONFLICT (business_id, mode, kind, shard) DO UPDATE SET count = list_counters.count + EXCLUDED.count`;
}

export async function readCounter(db: DbOrTx, businessId: number, mode: string, kind: CounterKind): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${listCounters.count}), 0)::bigint` })
    .from(listCounters)
    .where(and(eq(listCounters.businessId, businessId), eq(listCounters.mode, mode), eq(listCounters.kind, kind)));
  return Number(row?.total ?? 0);
}
