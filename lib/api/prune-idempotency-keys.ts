import { sql } from 'drizzle-orm';
import type { Stop } from '../background-loop';
import { backgroundLoop } from '../background-loop';
import type { Db, DbOrTx } from '../db/client';

const BATCH = 5_000;
const EVERY_MS = 60_000;

/**
 * Deletes up to a batch of Idempotency-Key answers past their 24 hours; true
 * when more may be left. A retry after that runs as a new request, as it
 * would once the key's own retry found it expired.
 */
export async function pruneIdempotencyKeys(db: DbOrTx, batch = BATCH): Promise<boolean> {
  const deleted = await db.execute(sql`
    DELETE FROM idempotency_keys WHERE (api_key_id, key) IN (
      SELECT api_key_id, key FROM idempotency_keys WHERE expires_at < now() LIMIT ${batch} FOR UPDATE SKIP LOCKED)`);
  return deleted.rowCount === batch;
}

export const startIdempotencyPruning = (db: Db): Stop => backgroundLoop('idempotency key pruning', EVERY_MS, () => pruneIdempotencyKeys(db));
