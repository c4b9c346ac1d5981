import type { Db, DbOrTx, Tx } from './client';
import { currentCommitHook } from './commit-hooks';

const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Runs fn in a transaction, retrying the whole of it on a serialization failure
 * or deadlock so that neither ever reaches a client.
 */
export async function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, attempts = 5): Promise<T> {
  return withRetry(() => {
    const hook = currentCommitHook();
    return db.transaction(async (tx) => {
      const result = await fn(tx);
      await hook?.(tx, result);
      return result;
    });
  }, attempts);
}

/**
 * Runs fn, which writes with one statement. With no commit hook to run (no
 * Idempotency-Key claim to mark) the statement runs alone, atomic by itself,
 * saving the BEGIN and COMMIT round trips; otherwise inside inTransaction so
 * the hook commits with it.
 */
export async function inOneStatement<T>(db: Db, fn: (db: DbOrTx) => Promise<T>): Promise<T> {
  return currentCommitHook() ? inTransaction(db, fn) : withRetry(() => fn(db));
}

async function withRetry<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const code = pgCode(err);
      if (!code || !RETRYABLE.has(code) || attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
    }
  }
}

/** The SQLSTATE of a node-postgres error, also when drizzle wrapped it. */
export function pgCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

export function pgConstraint(err: unknown): string | undefined {
  for (let e = err as { constraint?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof e.constraint === 'string') return e.constraint;
  }
  return undefined;
}
