import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import type { CalendarChoice, Locale } from '../i18n/locale';
import { MAX_AMOUNT, MIN_AMOUNT, type Mode } from '../validation';
import { cardOfLinkToken } from './card-links';
import { ACTIVE } from './card-status';

/** What one line of the cardholder's history says, in their words (the page names each in its language). */
type CardholderMovement =
  | 'added'
  | 'received'
  | 'sent'
  | 'spent'
  | 'held'
  | 'released'
  | 'paid_out'
  | 'returned'
  | 'refunded'
  | 'taken_back'
  | 'closed'
  | 'money_in'
  | 'money_out';

const KINDS: Record<string, CardholderMovement | ((amount: number) => CardholderMovement)> = {
  payment: 'added',
  transfer_settlement: 'added',
  adjustment_increase: 'added',
  payout_card_to_card: (amount) => (amount > 0 ? 'received' : 'sent'),
  card_redemption: 'spent',
  hold: 'held',
  hold_release: 'released',
  payout_b2b: 'paid_out',
  payout_bank: 'paid_out',
  payout_bank_reversal: 'returned',
  transfer_reversal: 'taken_back',
  payment_refund: 'refunded',
  payment_refund_reversal: 'returned',
  adjustment_decrease: 'taken_back',
  card_cancellation: 'closed',
  card_expiry: 'closed',
};

function movementOf(kind: string, amount: number): CardholderMovement {
  const known = KINDS[kind];
  if (typeof known === 'function') return known(amount);
  return known ?? (amount > 0 ? 'money_in' : 'money_out');
}

export interface CardholderPage {
  mode: Mode;
  business: { name: string; timeZone: string; calendar: CalendarChoice; customerLanguage: Locale };
  card: { number: string; currency: string; balance: number; held: number; expiresAt: Date | null; active: boolean };
  /** The newest first, at most HISTORY_LENGTH. */
  movements: { at: Date; movement: CardholderMovement; amount: number; balanceAfter: number }[];
  /** Gifts bought for this card in the business's shop, newest first (at most GIFTS_SHOWN): who sent each and their message, whole. */
  gifts: { at: Date; buyer: string; message: string | null; amount: number }[];
  /** What "Add money" may ask for now, in minor units (max null: no limit but the API's); none when the card cannot take money (disabled, or full). */
  topUp: { min: number; max: number | null } | null;
}

const HISTORY_LENGTH = 20;
const GIFTS_SHOWN = 10;

/**
 * What the card's holder sees behind its link: the card, its business's name, language, calendar and zone, and
 * its last movements in words. Nothing else of the business (no references, people, keys or other cards).
 * None for a link that opens nothing.
 */
export async function cardholderPage(db: DbOrTx, token: string): Promise<CardholderPage | null> {
  const linked = await cardOfLinkToken(db, token);
  if (!linked) return null;
  const [head, history, gifts] = await Promise.all([
    db.execute<{
      name: string;
      time_zone: string;
      calendar: CalendarChoice;
      customer_language: Locale;
      currency: string;
      status: number;
      expires_at: Date | null;
      balance: number;
      held: number;
      max_card_balance: number | null;
      pending: number;
    }>(sql`
      SELECT b.name, b.time_zone, b.calendar, b.customer_language, c.currency, c.status, c.expires_at, a.balance,
             coalesce((SELECT sum(h.amount) FROM holds h WHERE h.card_id = c.id AND h.status = 'open'), 0)::bigint AS held,
             l.max_card_balance,
             coalesce((SELECT sum(p.amount) FROM payments p
                        WHERE p.card_id = c.id AND p.status = 'pending' AND p.created_at > now() - interval '24 hours'), 0)::bigint AS pending
        FROM cards c
        JOIN businesses b ON b.id = c.business_id
        JOIN ledger_accounts a ON a.id = c.account_id
        LEFT JOIN business_limits l ON l.business_id = c.business_id AND l.mode = c.mode AND l.currency = c.currency
       WHERE c.id = ${linked.cardId}`),
    db.execute<{ created_at: Date; kind: string; amount: number; balance_after: number }>(sql`
      SELECT e.created_at, t.kind, e.amount, e.balance_after
        FROM (SELECT * FROM ledger_entries WHERE account_id = (SELECT account_id FROM cards WHERE id = ${linked.cardId})
              ORDER BY id DESC LIMIT ${HISTORY_LENGTH}) e
        JOIN ledger_transactions t ON t.id = e.transaction_id
       ORDER BY e.id DESC`),
    db.execute<{ paid_at: Date; buyer_name: string; message: string | null; amount: number }>(sql`
      SELECT paid_at, buyer_name, message, amount FROM shop_orders
       WHERE card_id = ${linked.cardId} AND status = 'paid' AND mode = ${linked.mode}
       ORDER BY paid_at DESC, id DESC LIMIT ${GIFTS_SHOWN}`),
  ]);
  const r = head.rows[0];
  const balance = Number(r.balance);
  const held = Number(r.held);
  const active = Number(r.status) === ACTIVE;
  // The business's max_card_balance less what the card holds and what is on its way (as assertCardCanTake counts it).
  const max = r.max_card_balance === null ? null : Math.min(MAX_AMOUNT, Number(r.max_card_balance) - balance - held - Number(r.pending));
  return {
    mode: linked.mode,
    business: { name: r.name, timeZone: r.time_zone, calendar: r.calendar, customerLanguage: r.customer_language },
    card: { number: linked.cardNumber, currency: r.currency, balance, held, expiresAt: r.expires_at ? new Date(r.expires_at) : null, active },
    movements: history.rows.map((m) => ({
      at: new Date(m.created_at),
      movement: movementOf(m.kind, Number(m.amount)),
      amount: Number(m.amount),
      balanceAfter: Number(m.balance_after),
    })),
    gifts: gifts.rows.map((g) => ({ at: new Date(g.paid_at), buyer: g.buyer_name, message: g.message, amount: Number(g.amount) })),
    topUp: active && (max === null || max >= MIN_AMOUNT) ? { min: MIN_AMOUNT, max } : null,
  };
}
