import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { readCounter } from '../db/list-counters';
import { pageCount, type PageRequest } from '../pagination';
import type { Mode } from '../validation';
import { selectCardPage, toGiftCard, type GiftCard } from './card-view';
import { nationalNumberCandidates } from './phone';

export interface ListCardsOptions {
  businessId: number;
  mode: Mode;
  page: PageRequest;
  phoneNumber?: string;
}

export interface CardPage {
  items: GiftCard[];
  page: number;
  pages: number;
  size: number;
  total: number;
}

/** Live cards, newest first; the total comes from counters, not a COUNT over every card. */
export async function listCards(db: DbOrTx, opts: ListCardsOptions): Promise<CardPage> {
  const { limit, offset, page } = opts.page;
  const scope = sql`c.business_id = ${opts.businessId} AND c.mode = ${opts.mode} AND c.cancelled_at IS NULL`;
  let where = scope;
  let total: number;
  if (opts.phoneNumber !== undefined) {
    const candidates = nationalNumberCandidates(opts.phoneNumber);
    if (candidates.length === 0) return { items: [], page, pages: 0, size: limit, total: 0 };
    const holders = sql`SELECT id FROM customers WHERE national_number IN (${sql.join(
      candidates.map((c) => sql`${c}`),
      sql`, `,
    )})`;
    where = sql`${scope} AND c.customer_id IN (${holders})`;
    const counted = await db.execute<{ total: number }>(sql`SELECT count(*)::bigint AS total FROM cards c WHERE ${where}`);
    total = Number(counted.rows[0].total);
  } else {
    total = await readCounter(db, opts.businessId, opts.mode, 'cards');
  }
  const rows = await selectCardPage(db, where, limit, offset);
  return { items: rows.map(toGiftCard), page, pages: pageCount(total, limit), size: limit, total };
}
