import { sql } from 'drizzle-orm';
import { requireOwnCard } from '../cards/get-card';
import type { CardRow } from '../cards/card-view';
import type { DbOrTx } from '../db/client';
import type { Mode } from '../validation';

export interface TimelineEntry {
  id: number;
  kind: string;
  reference: string | null;
  /** Signed minor units: positive came onto the card, negative left it. */
  amount: number;
  balanceAfter: number;
  createdAt: string;
}

export interface CardTimelineOptions {
  businessId: number;
  mode: Mode;
  cardNumber: string;
  /** Entry id cursor: only entries older than it. */
  before?: number;
  limit: number;
}

export interface CardTimeline {
  card: CardRow;
  entries: TimelineEntry[];
  /** Cursor for older entries, when there are more. */
  olderBefore: number | null;
  /** The business account of the card's currency and mode: where a cancelled card's money goes, and where a top-up may come from. */
  businessBalance: number;
}

/**
 * A card with every movement of its ledger account, newest first, each with the
 * balance it left behind. The card is found in the caller's business and mode
 * first, so another business's card is "not found" and its entries are never read.
 */
export async function cardTimeline(db: DbOrTx, opts: CardTimelineOptions): Promise<CardTimeline> {
  const card = await requireOwnCard(db, opts.businessId, opts.mode, opts.cardNumber);
  const [result, business] = await Promise.all([
    db.execute<{ id: number; kind: string; reference: string | null; amount: number; balance_after: number; created_at: Date }>(sql`
    SELECT e.id, t.kind, t.reference, e.amount, e.balance_after, e.created_at
    FROM ledger_entries e
    JOIN ledger_transactions t ON t.id = e.transaction_id
    WHERE e.account_id = ${card.account_id} ${opts.before !== undefined ? sql`AND e.id < ${opts.before}` : sql``}
    ORDER BY e.id DESC
    LIMIT ${opts.limit + 1}`),
    db.execute<{ balance: number }>(sql`
      SELECT balance FROM ledger_accounts
      WHERE kind = 'business' AND business_id = ${opts.businessId} AND mode = ${opts.mode} AND currency = ${card.currency} AND name = ${`business:${opts.businessId}`}`),
  ]);
  const rows = result.rows.slice(0, opts.limit);
  return {
    card,
    entries: rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      reference: r.reference,
      amount: Number(r.amount),
      balanceAfter: Number(r.balance_after),
      createdAt: new Date(r.created_at).toISOString(),
    })),
    olderBefore: result.rows.length > opts.limit ? Number(rows.at(-1)!.id) : null,
    businessBalance: Number(business.rows[0]?.balance ?? 0),
  };
}

/** Ledger transaction kinds in words a support agent can read out on the phone. */
export const MOVEMENT_LABELS: Record<string, string> = {
  payment: 'Top-up payment',
  transfer_settlement: 'Top-up from business balance',
  transfer_reversal: 'Top-up reversed',
  payout_card_to_card: 'Card-to-card payout',
  payout_b2b: 'Business payout',
  payout_bank: 'Bank payout',
  payout_bank_reversal: 'Bank payout returned',
  card_cancellation: 'Card cancelled: balance to business account',
};
