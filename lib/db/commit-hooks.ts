import { AsyncLocalStorage } from 'node:async_hooks';
import type { Tx } from './client';

/** Runs inside the transaction, given what its work returned. */
export type CommitHook = (tx: Tx, result: unknown) => Promise<void>;

const hooks = new AsyncLocalStorage<CommitHook>();

/**
 * Runs fn so that every transaction it commits through inTransaction first runs
 * hook inside that transaction: what the hook writes commits, or rolls back,
 * together with the work.
 */
export function withCommitHook<T>(hook: CommitHook, fn: () => Promise<T>): Promise<T> {
  return hooks.run(hook, fn);
}

export function currentCommitHook(): CommitHook | undefined {
  return hooks.getStore();
}

/** Runs fn with no commit hook: the statements of a batch's items, whose one transaction marks the hook itself. */
export function withoutCommitHook<T>(fn: () => Promise<T>): Promise<T> {
  return hooks.exit(fn);
}

/**
 * What one of a request's several transactions returns when each must leave its own record (a payout batch's
 * chunk: its items' outcomes): the idempotency mark adds `part` to what the earlier ones recorded, in the same
 * transaction, instead of keeping only the first transaction's result. `value` is what the caller gets back.
 */
export class CommittedPart<T> {
  constructor(
    readonly part: Record<string, unknown>,
    readonly value: T,
  ) {}
}
