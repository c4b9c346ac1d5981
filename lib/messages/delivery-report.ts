import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import { linkTokenHash } from '../link-token';
import { enqueueEvent } from '../webhooks/outbox';
import { messageEventPayload } from '../webhooks/payloads';
import { maskAddress } from './message-kinds';

/** What a delivery report's status word means for the message: AfroMessage's words vary, so they are read loosely. */
function reportedStatus(word: string): 'delivered' | 'failed' | 'sent' {
  if (/undeliver|fail|reject|expire|error|invalid/i.test(word)) return 'failed';
  if (/deliver/i.test(word)) return 'delivered';
  return 'sent';
}

/**
 * The message's callback (its URL's token is its only key; only its hash is kept): delivered or failed as the
 * provider reports. A report about a message already final changes nothing. False for a token that is no message's.
 */
export async function recordDeliveryReport(db: Db, token: string, report: { status: string }): Promise<boolean> {
  const hash = linkTokenHash(token);
  if (!hash) return false;
  const status = reportedStatus(report.status);
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.execute<Record<string, unknown>>(sql`
      WITH m AS (SELECT id, status AS was FROM cardholder_messages WHERE callback_hash = ${hash} FOR UPDATE)
      UPDATE cardholder_messages x SET
        status = CASE WHEN m.was IN ('queued', 'sent') AND ${status} <> 'sent' THEN ${status} ELSE x.status END,
        delivered_at = CASE WHEN m.was IN ('queued', 'sent') AND ${status} = 'delivered' THEN now() ELSE x.delivered_at END,
        sent_at = CASE WHEN m.was = 'queued' AND ${status} = 'delivered' THEN coalesce(x.sent_at, now()) ELSE x.sent_at END,
        error = CASE WHEN m.was IN ('queued', 'sent') AND ${status} = 'failed' THEN ${`AfroMessage reported the message ${report.status.slice(0, 100)}`} ELSE x.error END,
        in_flight = CASE WHEN m.was IN ('queued', 'sent') AND ${status} <> 'sent' THEN false ELSE x.in_flight END,
        updated_at = now()
      FROM m WHERE x.id = m.id
      RETURNING x.reference, x.business_id, x.mode, x.kind, x.channel, x.to_address, x.status, x.error, x.provider_message_id,
                x.created_at, x.updated_at, m.was, (SELECT card_number FROM cards WHERE id = x.card_id) AS card_number,
                (SELECT reference FROM shop_orders WHERE id = x.order_id) AS order_reference`);
    const r = rows[0];
    if (!r) return false;
    const announce = (type: 'message.sent' | 'message.failed') =>
      enqueueEvent(tx, {
        businessId: Number(r.business_id),
        mode: String(r.mode),
        type,
        subjectReference: String(r.reference),
        payload: messageEventPayload({
          type,
          mode: String(r.mode),
          kind: String(r.kind),
          channel: String(r.channel),
          messageReference: String(r.reference),
          cardNumber: (r.card_number as string | null) ?? null,
          orderReference: (r.order_reference as string | null) ?? null,
          to: maskAddress(String(r.to_address)),
          providerMessageId: (r.provider_message_id as string | null) ?? null,
          error: (r.error as string | null) ?? null,
          createdAt: new Date(r.created_at as string),
          updatedAt: new Date(r.updated_at as string),
        }),
      });
    // A report for a message whose send never heard back (a timeout): it was sent after all, and says so once.
    if (r.was === 'queued' && r.status === 'delivered') await announce('message.sent');
    if (r.status === 'failed' && r.was !== 'failed') await announce('message.failed');
    return true;
  });
}
