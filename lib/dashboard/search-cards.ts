import { sql, type SQL } from 'drizzle-orm';
import { selectCards, type CardRow } from '../cards/card-view';
import { ACTIVE } from '../cards/card-status';
import type { DbOrTx } from '../db/client';
import { readCounter } from '../db/list-counters';
import { compactQuery, phoneCandidates } from '../search/phone-candidates';
import { type Mode, withoutControlCharacters } from '../validation';

export type CardStatusFilter = 'active' | 'disabled' | 'cancelled';

export interface SearchCardsOptions {
  businessId: number;
  mode: Mode;
  /** The business's country: a national phone number is read as this country's. Default ET. */
  country?: string;
  /**
   * What the search box holds: a card number (spaces and dashes allowed), its last four digits,
   * a phone number in any form people type, or any part of the holder's name as this business gave it.
   */
  query?: string;
  /** Left out: every card, cancelled ones included (marked so), as "All" reads. */
  status?: CardStatusFilter;
  /**
   * At most this many holders matched by name are looked at (the header search's quick answer, whose cost must
   * not grow with a common name); the list leaves it unset and pages through every match.
   */
  nameMatchLimit?: number;
  /** Keyset cursors: the id of the last card of the previous page, or the first card of the next one. */
  after?: number;
  before?: number;
  limit: number;
  /** Count what a search or status filter matches too (the list's "N matching cards"), up to MATCH_COUNT_CAP. */
  countMatches?: boolean;
}

/** A filtered count stops here: the list then says "more than 10,000", and no search counts a whole large table. */
export const MATCH_COUNT_CAP = 10_000;

export interface CardSearchPage {
  items: CardRow[];
  /** Cursor for the next (older) page, when there is one. */
  nextAfter: number | null;
  /** Cursor for the previous (newer) page, when there is one. */
  prevBefore: number | null;
  /** Without filters, exact (from the list counters); filtered, the matches up to MATCH_COUNT_CAP + 1 when countMatches asks, else null. */
  total: number | null;
}

/** LIKE's own characters taken literally. */
export const likeEscape = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** The holder's name as customer_names_name_trgm_idx indexes it: the query must use this exact expression. */
const holderNameExpression = (alias: string) => sql.raw(`lower(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.last_name, ''))`);

/** A name fragment worth searching: three characters or more (a trigram), with a letter in it. */
export const nameFragment = (query: string): string | null => {
  const text = query.trim().replace(/\s+/g, ' ').toLowerCase();
  return text.length >= 3 && /\p{L}/u.test(text) ? text : null;
};

/**
 * The card condition for what the search box holds, each form on its own index:
 * 16 digits are a card number (cards.card_number), 4 digits its last four
 * (cards_last_four_idx), 6 to 16 digits or a leading + a phone
 * (customers by national number or E.164), and text any part of the holder's
 * name as this business wrote it (customer_names_name_trgm_idx; another
 * business's name for the same person is never read). Null: nothing can match.
 */
export function searchCondition(query: string, scope: { businessId: number; mode: Mode; country?: string; nameMatchLimit?: number }): SQL | null {
  const compact = compactQuery(query);
  if (/^\d{16}$/.test(compact)) {
    // National numbers are shorter than 16 digits (E.164 caps the whole number at 15), so this is a card number.
    return sql`c.card_number = ${compact}`;
  }
  if (/^\d{4}$/.test(compact)) return sql`right(c.card_number, 4) = ${compact}`;
  const phone = phoneCandidates(query, scope.country ?? 'ET');
  if (phone) {
    const values = (list: string[]) =>
      sql.join(
        list.map((v) => sql`${v}`),
        sql`, `,
      );
    const forms: SQL[] = [];
    if (phone.national.length) forms.push(sql`national_number IN (${values(phone.national)})`);
    if (phone.e164.length) forms.push(sql`phone_number IN (${values(phone.e164)})`);
    return sql`c.customer_id IN (SELECT id FROM customers WHERE mode = ${scope.mode} AND (${sql.join(forms, sql` OR `)}))`;
  }
  const name = nameFragment(query);
  if (!name) return null;
  // The matching holders first (an InitPlan on the trigram index), then their cards by cards_customer_idx:
  // never a pass over every card of the business, however common or rare the name.
  const cap = scope.nameMatchLimit ? sql`LIMIT ${scope.nameMatchLimit}` : sql``;
  // Names are per business, customers per mode: the cap counts only holders of this mode, so a busy test mode never crowds out live.
  return sql`c.customer_id = ANY(ARRAY(SELECT n.customer_id FROM customer_names n JOIN customers cu ON cu.id = n.customer_id AND cu.mode = ${scope.mode}
    WHERE n.business_id = ${scope.businessId} AND ${holderNameExpression('n')} LIKE ${`%${likeEscape(name)}%`} ${cap}))`;
}

/**
 * The dashboard's card list: newest first, paged by keyset (never OFFSET), so
 * page 1 and page 5,000 of 100,000 cards cost the same index range scan.
 */
export async function searchCards(db: DbOrTx, opts: SearchCardsOptions): Promise<CardSearchPage> {
  const empty: CardSearchPage = { items: [], nextAfter: null, prevBefore: null, total: null };
  const filters: SQL[] = [sql`c.business_id = ${opts.businessId} AND c.mode = ${opts.mode}`];
  if (opts.status === 'cancelled') filters.push(sql`c.cancelled_at IS NOT NULL`);
  else if (opts.status) filters.push(sql`c.cancelled_at IS NULL`);
  const query = opts.query === undefined ? undefined : withoutControlCharacters(opts.query).trim();
  if (query) {
    const condition = searchCondition(query, opts);
    if (!condition) return empty;
    filters.push(condition);
  }
  // Written as the partial index's predicate (status <> 1) so the planner can use it for the disabled filter.
  if (opts.status === 'active') filters.push(sql`c.status = ${ACTIVE}`);
  if (opts.status === 'disabled') filters.push(sql`c.status <> ${sql.raw(String(ACTIVE))}`);

  const matched = sql.join(filters, sql` AND `);
  // The cursor card's own position, read inside the same scope: another business's id finds no row and so no page.
  const position = (id: number) =>
    sql`(SELECT p.created_at, p.id FROM cards p WHERE p.id = ${id} AND p.business_id = ${opts.businessId} AND p.mode = ${opts.mode})`;
  const backwards = opts.before !== undefined && opts.after === undefined;
  if (opts.after !== undefined) filters.push(sql`(c.created_at, c.id) < ${position(opts.after)}`);
  else if (opts.before !== undefined) filters.push(sql`(c.created_at, c.id) > ${position(opts.before)}`);

  const order = backwards ? sql`ORDER BY c.created_at ASC, c.id ASC` : sql`ORDER BY c.created_at DESC, c.id DESC`;
  const where = sql.join(filters, sql` AND `);
  const take = opts.limit + 1;
  // All cards, unsearched: live and cancelled ones are each listed by their own partial index (cards_list_idx,
  // cards_cancelled_list_idx), so the page is the merge of a page from each, never a sort of every card. A search
  // reads its own index (number, phone, name) and needs no split.
  const pageIds =
    opts.status || query
      ? sql`SELECT c.id FROM cards c WHERE ${where} ${order} LIMIT ${take}`
      : sql`SELECT c.id FROM ((SELECT c.id, c.created_at FROM cards c WHERE ${where} AND c.cancelled_at IS NULL ${order} LIMIT ${take})
        UNION ALL (SELECT c.id, c.created_at FROM cards c WHERE ${where} AND c.cancelled_at IS NOT NULL ${order} LIMIT ${take})) c ${order} LIMIT ${take}`;
  const [rows, total] = await Promise.all([
    // Cut the page from the list index first (an InitPlan), then join holder and balance for those rows only.
    selectCards(db, sql`c.id = ANY(ARRAY(${pageIds}))`, order),
    query || opts.status
      ? opts.countMatches
        ? db
            .execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM cards c WHERE ${matched} LIMIT ${MATCH_COUNT_CAP + 1}) m`)
            .then((r) => Number(r.rows[0].n))
        : Promise.resolve(null)
      : readCounter(db, opts.businessId, opts.mode, 'cards'),
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

/** The card list's search box and status filter from its URL, as the page and its export read them. */
export function parseCardFilters(params: Record<string, string | string[] | undefined>): { query?: string; status?: CardStatusFilter } {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const query = (one(params.q) ?? '').trim().slice(0, 100);
  const status = one(params.status);
  return {
    query: query || undefined,
    status: status === 'active' || status === 'disabled' || status === 'cancelled' ? status : undefined,
  };
}
