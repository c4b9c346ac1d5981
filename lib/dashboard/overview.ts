import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import type { Mode } from '../validation';

export interface Overview {
  balances: { currency: string; business: number; cards: number; cardCount: number }[];
  recent: {
    kind: 'payout' | 'payment';
    reference: string;
    type: string;
    /** A payout from the business balance to a card (a top-up), or the wallet of a direct charge. */
    isLedgerTopup: boolean;
    paymentMethod: string | null;
    status: string;
    currency: string;
    amount: number;
    createdAt: string;
  }[];
  volume: { day: string; currency: string; payments: number; payouts: number }[];
}

/**
 * The overview page: balances per currency, recent activity and 30 days of
 * volume, for one business and mode; volume days are the business's calendar
 * days in its time zone.
 */
export async function getOverview(db: DbOrTx, businessId: number, mode: Mode, timeZone: string): Promise<Overview> {
  const [balances, recent, volume] = await Promise.all([
    db.execute<{ currency: string; business: number; cards: number; card_count: number }>(sql`
      SELECT currency, sum(CASE WHEN kind = 'business' THEN balance ELSE 0 END)::bigint AS business,
             sum(CASE WHEN kind = 'card' THEN balance ELSE 0 END)::bigint AS cards,
             count(*) FILTER (WHERE kind = 'card')::bigint AS card_count
      FROM ledger_accounts a
      WHERE a.business_id = ${businessId} AND a.mode = ${mode} AND a.kind IN ('business', 'card')
        AND (a.kind = 'business' OR EXISTS (SELECT 1 FROM cards c WHERE c.account_id = a.id AND c.cancelled_at IS NULL))
      GROUP BY currency ORDER BY currency`),
    db.execute<{
      kind: 'payout' | 'payment';
      reference: string;
      type: string;
      is_ledger_topup: boolean;
      payment_method: string | null;
      status: string;
      currency: string;
      amount: number;
      created_at: Date;
    }>(sql`
      (SELECT 'payout' AS kind, reference, payout_type AS type, is_ledger_topup, NULL::text AS payment_method, status, currency, amount, created_at, id FROM payouts
        WHERE business_id = ${businessId} AND mode = ${mode} ORDER BY created_at DESC, id DESC LIMIT 8)
      UNION ALL
      (SELECT 'payment', link_reference, type, false, payment_method, status, currency, amount, created_at, id FROM payments
        WHERE business_id = ${businessId} AND mode = ${mode} ORDER BY created_at DESC, id DESC LIMIT 8)
      ORDER BY created_at DESC LIMIT 10`),
    db.execute<{ day: string; currency: string; payments: number; payouts: number }>(sql`
      WITH p AS (
        SELECT to_char(date_trunc('day', created_at AT TIME ZONE ${timeZone}), 'YYYY-MM-DD') AS day, currency, amount, 0 AS out FROM payments
        WHERE business_id = ${businessId} AND mode = ${mode} AND status = 'success' AND created_at > now() - interval '30 days'
        UNION ALL
        SELECT to_char(date_trunc('day', created_at AT TIME ZONE ${timeZone}), 'YYYY-MM-DD'), currency, 0, amount FROM payouts
        WHERE business_id = ${businessId} AND mode = ${mode} AND status = 'success' AND created_at > now() - interval '30 days'
      )
      SELECT day, currency, sum(amount)::bigint AS payments, sum(out)::bigint AS payouts FROM p GROUP BY day, currency ORDER BY day`),
  ]);
  return {
    balances: balances.rows.map((r) => ({ currency: r.currency, business: Number(r.business), cards: Number(r.cards), cardCount: Number(r.card_count) })),
    recent: recent.rows.map((r) => ({
      kind: r.kind,
      reference: r.reference,
      type: r.type,
      isLedgerTopup: r.is_ledger_topup,
      paymentMethod: r.payment_method,
      status: r.status,
      currency: r.currency,
      amount: Number(r.amount),
      createdAt: new Date(r.created_at).toISOString(),
    })),
    volume: volume.rows.map((r) => ({ day: r.day, currency: r.currency, payments: Number(r.payments), payouts: Number(r.payouts) })),
  };
}
