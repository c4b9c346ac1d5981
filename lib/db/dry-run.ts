import type { Db } from './client';

class RolledBack extends Error {}

/**
 * Runs an operation that moves money in a transaction that is always rolled
 * back: it throws the operation's own refusal, or resolves when the operation
 * would go through now. A form checks this way before it asks for a yes, so
 * the check is the operation's rule itself, never a copy that could drift.
 */
export async function dryRun(db: Db, operation: (db: Db) => Promise<unknown>): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      // The operation opens its own transaction on this one: a savepoint, rolled back with it.
      await operation(tx as unknown as Db);
      throw new RolledBack();
    });
  } catch (err) {
    if (!(err instanceof RolledBack)) throw err;
  }
}
