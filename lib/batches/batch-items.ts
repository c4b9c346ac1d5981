import { ServiceError, validationError } from '../errors';
import type { BatchResult } from './batch-result';

/**
 * The items of a batch body `{ [field]: [...] }`: a body whose field is not an
 * array of 1 to `max` items is refused whole (400, nothing done); an item is
 * judged on its own later.
 */
export function batchItems(body: unknown, field: string, max: number, itemName: string): unknown[] {
  const items = (body as Record<string, unknown> | null)?.[field];
  if (!Array.isArray(items) || items.length === 0 || items.length > max) {
    throw validationError(field, `${field} must be an array of 1 to ${max} items, each the body of ${itemName}.`);
  }
  return items;
}

/** Parses each item as the single call parses its body: a body that is not a JSON object is the single call's refusal too. */
export function parseItems<T>(items: unknown[], parse: (item: unknown) => T): BatchResult<T>[] {
  return items.map((item) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return { ok: false, error: validationError('body', 'The request body must be a JSON object.') };
    }
    try {
      return { ok: true, value: parse(item) };
    } catch (err) {
      if (err instanceof ServiceError) return { ok: false, error: err };
      throw err;
    }
  });
}

/**
 * Runs the items that parsed through `run` (a batch core) and puts every
 * answer back in its place. An item that did not parse would have changed
 * nothing sent alone, so leaving it out keeps the others' order and effects.
 */
export async function runParsed<I, T>(parsed: BatchResult<I>[], run: (items: I[]) => Promise<BatchResult<T>[]>): Promise<BatchResult<T>[]> {
  const done = await run(parsed.flatMap((p) => (p.ok ? [p.value] : [])));
  let next = 0;
  return parsed.map((p) => (p.ok ? done[next++] : p));
}

/** A result as the batch answers it: the single call's `data`, or its error envelope. */
export function wireResult<T>(result: BatchResult<T>): T | { status: 'error'; message: string; error: ServiceError['detail'] } {
  return result.ok ? result.value : { status: 'error', message: result.error.title, error: result.error.detail };
}
