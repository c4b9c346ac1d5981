import { withoutControlCharacters } from '../validation';
import { isCalendarDay, nextDay, zonedDayStart } from '../time-zone';
import { asc, desc, gte, lt, sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** A position in a newest-first list: the created_at and id of a row, opaque in the URL. */
export interface KeysetCursor {
  createdAt: Date;
  id: number;
}

function encodeCursor(row: { createdAt: Date; id: number }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

/** A cursor that was tampered with or truncated reads as none: the list starts over. */
function decodeCursor(value: string | undefined | null): KeysetCursor | undefined {
  if (!value || value.length > 100) return undefined;
  const [iso, id] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso);
  if (!isCalendarDay(iso?.slice(0, 10)) || !/^\d{4}-\d\d-\d\dT/.test(iso) || Number.isNaN(createdAt.getTime()) || !/^\d{1,18}$/.test(id ?? ''))
    return undefined;
  return { createdAt, id: Number(id) };
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
export function toKeysetPage<T extends { createdAt: Date; id: number }>(
  fetched: T[],
  limit: number,
  direction: 'after' | 'before' | 'first',
  encode: (row: T) => string = encodeCursor,
): KeysetPage<T> {
  const more = fetched.length > limit;
  const rows = fetched.slice(0, limit);
  if (direction === 'before') rows.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (direction === 'before') {
    return { rows, next: last ? encode(last) : null, prev: more && first ? encode(first) : null };
  }
  return { rows, next: more && last ? encode(last) : null, prev: direction === 'after' && first ? encode(first) : null };
}

/** created_at within the from/to calendar days (YYYY-MM-DD, both inclusive) of the business's time zone. */
export function dayRange(createdAt: AnyColumn, from: string | undefined, to: string | undefined, timeZone: string): SQL[] {
  const where: SQL[] = [];
  if (from) where.push(gte(createdAt, zonedDayStart(from, timeZone)));
  if (to) where.push(lt(createdAt, zonedDayStart(nextDay(to), timeZone)));
  return where;
}

type Params = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
const day = (v: string | undefined) => (isCalendarDay(v) ? v : undefined);
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

/** The orders a history list can be read in: by date or by amount, each both ways. */
export const LIST_SORTS = ['newest', 'oldest', 'largest', 'smallest'] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export const PAGE_SIZES = [25, 50, 100] as const;
type PageSize = (typeof PAGE_SIZES)[number];

/** How a list page is read: its order and its length, from the URL; unknown values fall back to newest first, 25 rows. */
export interface ListView {
  sort: ListSort;
  size: PageSize;
}

export function parseListView(params: Params): ListView {
  const size = one(params.size);
  return {
    sort: pick(LIST_SORTS, one(params.sort)) ?? 'newest',
    size: PAGE_SIZES.find((s) => String(s) === size) ?? PAGE_SIZES[0],
  };
}

const byAmount = (sort: ListSort) => sort === 'largest' || sort === 'smallest';

/** An amount cursor, `a:<amount>|<id>`; a date cursor never starts with "a:", so a cursor kept across a change of sort reads as none. */
const encodeAmountCursor = (row: { amount: number; id: number }) => Buffer.from(`a:${row.amount}|${row.id}`).toString('base64url');

function decodeAmountCursor(value: string | undefined | null): { amount: number; id: number } | undefined {
  if (!value || value.length > 100) return undefined;
  const m = /^a:(-?\d{1,16})\|(\d{1,18})$/.exec(Buffer.from(value, 'base64url').toString('utf8'));
  return m ? { amount: Number(m[1]), id: Number(m[2]) } : undefined;
}

export interface SortedColumns {
  createdAt: AnyColumn;
  amount: AnyColumn;
  id: AnyColumn;
}

/**
 * The keyset part of a list query in any of the four orders: by (created_at,
 * id) or (amount, id), each read on an index in that order, so a page costs
 * the same however deep it is. `after` is the next page in the chosen order,
 * `before` the previous one (read backwards, then turned round).
 */
export function sortedKeysetQuery(columns: SortedColumns, sort: ListSort, afterCursor?: string | null, beforeCursor?: string | null) {
  const amountSort = byAmount(sort);
  const decode = (v: string | null | undefined) => {
    if (amountSort) return decodeAmountCursor(v);
    const c = decodeCursor(v);
    return c && { value: c.createdAt.toISOString(), id: c.id };
  };
  const toKey = (c: { amount: number; id: number } | { value: string; id: number } | undefined) =>
    c && ('amount' in c ? { value: sql`${c.amount}::bigint`, id: c.id } : { value: sql`${c.value}::timestamptz`, id: c.id });
  const after = toKey(decode(afterCursor));
  const before = after ? undefined : toKey(decode(beforeCursor));
  const key = amountSort ? columns.amount : columns.createdAt;
  const descending = sort === 'newest' || sort === 'largest';
  // Reading towards the end of the list goes in the list's order; reading back to the previous page goes against it.
  const readDescending = before ? !descending : descending;
  const cursor = after ?? before;
  const where: SQL[] = cursor
    ? [readDescending ? sql`(${key}, ${columns.id}) < (${cursor.value}, ${cursor.id})` : sql`(${key}, ${columns.id}) > (${cursor.value}, ${cursor.id})`]
    : [];
  return {
    where,
    orderBy: readDescending ? [desc(key), desc(columns.id)] : [asc(key), asc(columns.id)],
    direction: (after ? 'after' : before ? 'before' : 'first') as 'after' | 'before' | 'first',
    encode: <T extends { createdAt: Date; amount: number; id: number }>(row: T) => (amountSort ? encodeAmountCursor(row) : encodeCursor(row)),
  };
}
