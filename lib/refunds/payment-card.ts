import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import type { Payment } from '../payments/payment-view';
import type { EventCustomer } from '../webhooks/payloads';

export interface CardRow {
  status: number;
  cancelled_at: Date | null;
  account_id: number;
  account_closed: boolean;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone_number: string;
}

/** The card a payment credited, locked against a cancellation in flight, and who holds it (for the event). */
export async function lockPaymentCard(tx: Tx, payment: Payment): Promise<CardRow | undefined> {
  const rows = await tx.execute<CardRow & Record<string, unknown>>(sql`
    SELECT c.status, c.cancelled_at, c.account_id, a.closed_at IS NOT NULL AS account_closed,
      n.first_name, n.last_name, n.email, cu.phone_number
    FROM cards c JOIN customers cu ON cu.id = c.customer_id JOIN ledger_accounts a ON a.id = c.account_id
    LEFT JOIN customer_names n ON n.business_id = ${payment.businessId} AND n.customer_id = c.customer_id
    WHERE c.id = ${payment.cardId} FOR SHARE OF c`);
  return rows.rows[0];
}

export const eventCustomer = (card: CardRow | undefined): EventCustomer | undefined =>
  card && { first_name: card.first_name, last_name: card.last_name, email: card.email, phone_number: card.phone_number };
