import { sql, type SQL } from 'drizzle-orm';
import { nationalNumberCandidates } from '../cards/phone';
import { selectCards, type CardRow } from '../cards/card-view';
import { ACTIVE } from '../cards/card-status';
import type { DbOrTx } from '../db/client';
import { readCounter } from '../db/list-counters';
import type { Mode } from '../validation';

export type CardStatusFilter = 'active' | 'disabled';

export interface SearchCardsOptions {
  businessId: number;
  mode: Mode;
  /** A card number, an E.164 phone number, or a national number with or without its trunk 0. */
  query?: string;
  status?: CardStatusFilter;
  /** Keyset cursors: the id of the last card of the previous page, or the first card of the next one. */
  after?: number;
  before?: number;
  limit: number;
}

export interface CardSearchPage {
  items: CardRow[];
  /** Cursor for the next (older) page, when there is one. */
  nextAfter: number | null;
  /** Cursor for the previous (newer) page, when there is one. */
  prevBefore: number | null;
  /** Exact only without filters (from the list counters); null when filtered, so no COUNT runs per request. */
  total: number | null;
}

/** What the search box holds: a card number, or a phone number in either form. */
export function searchCondition(query: string): SQL | null {
  const compact = query.replace(/[\s\-().]/g, '');
  if (/^\d{16}$/.test(compact)) {
    // National numbers are shorter than 16 digits (E.164 caps the whole number at 15), so this is a card number.
    return sql`c.card_number = ${compact}`;
  }
  if (/^\+\d{4,19}$/.test(compact)) return sql`c.customer_id IN (SELECT id FROM customers WHERE phone_number = ${compact})`;
  const candidates = nationalNumberCandidates(compact);
  if (candidates.length === 0) return null;
  return sql`c.customer_id IN (SELECT id FROM customers WHERE national_number IN (${sql.join(
    candidates.map((n) => sql`${n}`),
    sql`, `,
  )}))`;
}

/**
 * The dashboard's card list: newest first, paged by keyset (never OFFSET), so
 * page 1 and page 5,000 of 100,000 cards cost the same index range scan.
 */
export async function searchCards(db: DbOrTx, opts: SearchCardsOptions): Promise<CardSearchPage> {
  const empty: CardSearchPage = { items: [], nextAfter: null, prevBefore: null, total: 0 };
  const scope = sql`c.business_id = ${opts.businessId} AND c.mode = ${opts.mode} AND c.cancelled_at IS NULL`;
  const filters: SQL[] = [scope];
  const query = opts.query?.trim();
  if (query) {
    const condition = searchCondition(query);
    if (!condition) return empty;
    filters.push(condition);
  }
  // Written as the partial index's predicate (status <> 1) so the planner can use it for the disabled filter.
  if (opts.status === 'active') filters.push(sql`c.status = ${ACTIVE}`);
  if (opts.status === 'disabled') filters.push(sql`c.status <> ${sql.raw(String(ACTIVE))}`);

  // The cursor card's own position, read inside the same scope: another business's id finds no row and so no page.
  const position = (id: number) =>
    sql`(SELECT p.created_at, p.id FROM cards p WHERE p.id = ${id} AND p.business_id = ${opts.businessId} AND p.mode = ${opts.mode})`;
  const backwards = opts.before !== undefined && opts.after === undefined;
  if (opts.after !== undefined) filters.push(sql`(c.created_at, c.id) < ${position(opts.after)}`);
  else if (opts.before !== undefined) filters.push(sql`(c.created_at, c.id) > ${position(opts.before)}`);

  const order = backwards ? sql`ORDER BY c.created_at ASC, c.id ASC` : sql`ORDER BY c.created_at DESC, c.id DESC`;
  const where = sql.join(filters, sql` AND `);
  const [rows, total] = await Promise.all([
    // Cut the page from the list index first (an InitPlan), then join holder and balance for those rows only.
    selectCards(db, sql`c.id = ANY(ARRAY(SELECT c.id FROM cards c WHERE ${where} ${order} LIMIT ${opts.limit + 1}))`, order),
    query || opts.status ? Promise.resolve(null) : readCounter(db, opts.businessId, opts.mode, 'cards'),
  ]);
  const more = rows.length > opts.limit;
  const items = rows.slice(0, opts.limit);
  if (backwards) items.reverse();
  const first = items[0];
  const last = items.at(-1);
  return {
    items,
    nextAfter: last && (backwards ? opts.before !== undefined : more) ? Number(last.id) : null,
    prevBefore: first && (backwards ? more : opts.after !== undefined) ? Number(first.id) : null,
    total,
  };
}
