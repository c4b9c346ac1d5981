import { z } from 'zod';
import { parseInput } from './validation';

export const DEFAULT_LIMIT = 15;
const MAX_LIMIT = 100;

const intParam = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,15}$/, { error: `${name} must be a whole number.` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `${name} must be at least ${min}.` })
        .max(max, { error: `${name} must be at most ${max}.` }),
    )
    .optional();

export const pageQuery = z.object({
  page: intParam('page', 1, 1_000_000_000),
  limit: intParam('limit', 1, MAX_LIMIT),
  offset: intParam('offset', 0, 100_000_000_000),
});

export interface PageRequest {
  limit: number;
  offset: number;
  page: number;
}

/** page (1-based), limit and offset; with offset, page is floor(offset / limit) + 1. */
export function parsePageQuery(params: URLSearchParams): PageRequest {
  const raw = Object.fromEntries(['page', 'limit', 'offset'].filter((k) => params.has(k)).map((k) => [k, params.get(k)!.trim()]));
  const q = parseInput(pageQuery, raw);
  const limit = q.limit ?? DEFAULT_LIMIT;
  if (q.offset !== undefined) return { limit, offset: q.offset, page: Math.floor(q.offset / limit) + 1 };
  const page = q.page ?? 1;
  return { limit, offset: (page - 1) * limit, page };
}

export function pageCount(total: number, limit: number): number {
  return Math.ceil(total / limit);
}
