import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { enqueueJobsSql } from '../jobs/job-queue';
import type { Mode } from '../validation';
import { type CardMessage, toItem } from './list-messages';
import type { MessageChannel } from './message-kinds';
import { MESSAGE_MAX_ATTEMPTS } from './queue-message';

export interface PaidOrderMessages {
  orderId: number;
  businessId: number;
  mode: Mode;
  /** The card the order credited: the gift is of that card. */
  cardId: number;
  recipientPhone: string;
  linkUrl: string;
  buyerPhone: string | null;
  buyerEmail: string | null;
}

/**
 * Where the buyer's receipt goes: the email they gave (a receipt is kept, and mail costs the business nothing), else
 * their phone by SMS; nowhere when they gave neither.
 */
function receiptAddress(o: Pick<PaidOrderMessages, 'buyerPhone' | 'buyerEmail'>): { channel: MessageChannel; to: string } | null {
  if (o.buyerEmail?.trim()) return { channel: 'email', to: o.buyerEmail.trim() };
  if (o.buyerPhone) return { channel: 'sms', to: o.buyerPhone };
  return null;
}

/**
 * A paid shop order's two messages, in its transaction (one statement with their jobs): the recipient's gift by SMS
 * (`gift_received`: the card's link, the buyer's name and message; instead of card_issued and money_added) and the
 * buyer's receipt (`order_receipt`, a message of the order and of no card). Whatever the card's own switch (the
 * buyer asked for them); the receipt unless the business turned it off, the gift always (the link it brings ends the
 * card's last one, and it is all the recipient hears of the gift). Once per order and kind (the dedupe key).
 */
export async function queueOrderMessages(tx: DbOrTx, o: PaidOrderMessages): Promise<{ reference: string; kind: string }[]> {
  const receipt = receiptAddress(o);
  const gift = sql`(${o.cardId}::bigint, 'gift_received', 'sms', ${o.recipientPhone}::text, ${JSON.stringify({ link_url: o.linkUrl })}::jsonb)`;
  const rows = receipt ? sql`${gift}, (NULL::bigint, 'order_receipt', ${receipt.channel}::text, ${receipt.to}::text, '{}'::jsonb)` : gift;
  const { rows: queued } = await tx.execute<{ reference: string; kind: string }>(sql`
    WITH queued AS (
      INSERT INTO cardholder_messages (reference, business_id, mode, card_id, order_id, kind, channel, to_address, facts, dedupe_key)
      SELECT 'chm_' || replace(gen_random_uuid()::text, '-', ''), b.id, ${o.mode}, q.card_id, ${o.orderId}::bigint, q.kind, q.channel,
             q.to_address, q.facts, 'order:' || ${o.orderId}::bigint || ':' || q.kind
        FROM (VALUES ${rows}) q(card_id, kind, channel, to_address, facts)
        JOIN businesses b ON b.id = ${o.businessId}
       WHERE q.kind = 'gift_received' OR NOT (q.kind = ANY(b.message_kinds_off))
      ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
      RETURNING reference, business_id, mode, kind
    ), queued_jobs AS (
      ${enqueueJobsSql('cardholder_message', sql`SELECT reference, business_id, mode FROM queued`, { ownFirstTry: false, maxAttempts: MESSAGE_MAX_ATTEMPTS })}
    )
    SELECT reference, kind FROM queued`);
  return queued;
}

/** A shop order's messages as its page in the dashboard lists them: the gift and the receipt, with what became of each. */
export async function orderMessages(db: DbOrTx, o: { businessId: number; mode: Mode; orderReference: string }): Promise<CardMessage[]> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT m.reference, m.kind, m.channel, m.to_address, m.text, m.status, m.error, m.provider_message_id, m.created_at
      FROM cardholder_messages m JOIN shop_orders o ON o.id = m.order_id
     WHERE o.reference = ${o.orderReference} AND o.business_id = ${o.businessId} AND o.mode = ${o.mode}
       AND m.business_id = ${o.businessId} AND m.mode = ${o.mode}
     ORDER BY m.created_at, m.id`);
  return rows.map(toItem);
}
