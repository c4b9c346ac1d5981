import { sql } from 'drizzle-orm';
import { type PageRequest, pageCount } from '../pagination';
import { requireOwnCard } from '../cards/get-card';
import type { DbOrTx } from '../db/client';
import type { Mode } from '../validation';
import { cardTillHolds, type TillHold, toTillHold } from './till-hold-view';

export interface ListCardHoldsOptions {
  businessId: number;
  mode: Mode;
  cardNumber: string;
  page: PageRequest;
}

/** GET /card/{card_number}/holds: the card's till holds in every state, newest first, in the payout list's page object. */
export async function listCardHolds(db: DbOrTx, opts: ListCardHoldsOptions) {
  const card = await requireOwnCard(db, opts.businessId, opts.mode, opts.cardNumber);
  const [rows, counted] = await Promise.all([
    cardTillHolds(db, card.id, opts.page.limit, opts.page.offset),
    db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM holds WHERE card_id = ${card.id} AND kind = 'till'`),
  ]);
  const total = Number(counted.rows[0].total);
  const items: TillHold[] = rows.map(toTillHold);
  return { items, total, page: opts.page.page, limit: opts.page.limit, pages: pageCount(total, opts.page.limit) };
}
