import { ServiceError } from '../errors';

/** One item of a batch: what the single call would have answered, or the error it would have raised. */
export type BatchResult<T> = { ok: true; value: T } | { ok: false; error: ServiceError };

/** Runs one item, turning the single call's typed refusal into that item's result; anything else fails the batch. */
export async function itemResult<T>(run: () => Promise<T>): Promise<BatchResult<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    if (err instanceof ServiceError) return { ok: false, error: err };
    throw err;
  }
}
