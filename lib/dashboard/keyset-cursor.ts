import { withoutControlCharacters } from '../validation';
import { nextDay, zonedDayStart } from './time-zone';
import { asc, desc, gte, lt, sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** A position in a newest-first list: the created_at and id of a row, opaque in the URL. */
export interface KeysetCursor {
  createdAt: Date;
  id: number;
}

export function encodeCursor(row: { createdAt: Date; id: number }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

/** A cursor that was tampered with or truncated reads as none: the list starts over. */
export function decodeCursor(value: string | undefined | null): KeysetCursor | undefined {
  if (!value || value.length > 100) return undefined;
  const [iso, id] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso);
  if (!/^\d{4}-\d\d-\d\dT/.test(iso ?? '') || Number.isNaN(createdAt.getTime()) || !/^\d{1,18}$/.test(id ?? '')) return undefined;
  return { createdAt, id: Number(id) };
}

/** Rows strictly older (after) or newer (before) than the cursor, in the list index's order. */
export function keysetCondition(createdAt: AnyColumn, id: AnyColumn, cursor: KeysetCursor, direction: 'after' | 'before'): SQL {
  const ts = cursor.createdAt.toISOString();
  return direction === 'after'
    ? sql`(${createdAt}, ${id}) < (${ts}::timestamptz, ${cursor.id})`
    : sql`(${createdAt}, ${id}) > (${ts}::timestamptz, ${cursor.id})`;
}

export interface KeysetPage<T> {
  rows: T[];
  /** Cursor for the older page, when there is one. */
  next: string | null;
  /** Cursor for the newer page, when there is one. */
  prev: string | null;
}

/**
 * Turns limit + 1 rows fetched in the direction of travel into a page with
 * links both ways, so no page needs a COUNT.
 */
export function toKeysetPage<T extends { createdAt: Date; id: number }>(fetched: T[], limit: number, direction: 'after' | 'before' | 'first'): KeysetPage<T> {
  const more = fetched.length > limit;
  const rows = fetched.slice(0, limit);
  if (direction === 'before') rows.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (direction === 'before') {
    return { rows, next: last ? encodeCursor(last) : null, prev: more && first ? encodeCursor(first) : null };
  }
  return { rows, next: more && last ? encodeCursor(last) : null, prev: direction === 'after' && first ? encodeCursor(first) : null };
}

/** created_at within the from/to calendar days (YYYY-MM-DD, both inclusive) of the business's time zone. */
export function dayRange(createdAt: AnyColumn, from: string | undefined, to: string | undefined, timeZone: string): SQL[] {
  const where: SQL[] = [];
  if (from) where.push(gte(createdAt, zonedDayStart(from, timeZone)));
  if (to) where.push(lt(createdAt, zonedDayStart(nextDay(to), timeZone)));
  return where;
}

/**
 * The keyset part of a newest-first list query: the cursor condition, the
 * order to read in (ascending when paging back to newer rows) and the
 * direction toKeysetPage needs. `before` counts only without `after`.
 */
export function keysetQuery(createdAt: AnyColumn, id: AnyColumn, afterCursor?: string | null, beforeCursor?: string | null) {
  const after = decodeCursor(afterCursor);
  const before = after ? undefined : decodeCursor(beforeCursor);
  const cursor = after ?? before;
  return {
    where: cursor ? [keysetCondition(createdAt, id, cursor, after ? 'after' : 'before')] : [],
    orderBy: before ? [asc(createdAt), asc(id)] : [desc(createdAt), desc(id)],
    direction: (after ? 'after' : before ? 'before' : 'first') as 'after' | 'before' | 'first',
  };
}

type Params = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
const day = (v: string | undefined) => (v && /^\d{4}-\d\d-\d\d$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v) ? v : undefined);
const pick = <T extends string>(allowed: readonly T[], v: string | undefined) => (allowed.includes(v as T) ? (v as T) : undefined);

/** The search box of a list: trimmed, cut at 100 characters (no reference is longer). */
const search = (v: string | undefined) => (v === undefined ? undefined : withoutControlCharacters(v.slice(0, 100)).trim() || undefined);

/** type, status, from, to and the search q from the URL of a history list; unknown values are dropped rather than failing the page. */
export function parseHistoryFilters<T extends string, S extends string>(params: Params, types: readonly T[], statuses: readonly S[]) {
  return {
    type: pick(types, one(params.type)),
    status: pick(statuses, one(params.status)),
    from: day(one(params.from)),
    to: day(one(params.to)),
    q: search(one(params.q)),
  };
}
