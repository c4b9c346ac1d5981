import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { compiledOnce, runCompiled } from '../db/prepared';
import { logger } from '../observability/logger';

/** How often one process may write a key's last use. */
const LAST_USED_EVERY_MS = 60_000;

/**
 * Remembers, per key, when this process last wrote its use. A key is written
 * again only when the interval has passed: the decision is in memory, so a
 * request pays nothing for "last used" beyond, once a minute, one UPDATE it does not wait for.
 */
export class LastUsedThrottle {
  private readonly written = new Map<number, number>();
  constructor(
    private readonly everyMs = LAST_USED_EVERY_MS,
    private readonly maxKeys = 10_000,
  ) {}

  /** True when the caller should write this key's use now (and records that it does). */
  due(keyId: number, now = Date.now()): boolean {
    const last = this.written.get(keyId);
    if (last !== undefined && now - last < this.everyMs) return false;
    // Keys are few; a process that somehow sees more forgets the oldest rather than grow.
    if (last === undefined && this.written.size >= this.maxKeys) this.written.delete(this.written.keys().next().value!);
    this.written.delete(keyId);
    this.written.set(keyId, now);
    return true;
  }
}

const throttle = new LastUsedThrottle();

// The guard in WHERE keeps several instances to about one write a minute per key between them.
const touch = compiledOnce(
  () => sql`UPDATE api_keys SET last_used_at = now()
    WHERE id = ${sql.placeholder('id')} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
);

/** Notes that a key was used, at most once a minute per key and process, without making the request wait. */
export function noteKeyUsed(db: DbOrTx, keyId: number): void {
  if (!throttle.due(keyId)) return;
  runCompiled(db, touch(), { id: keyId }).catch((err) => logger.error({ err }, 'could not record the API key use'));
}
