import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { newCardLink } from '../cards/card-links';
import { requireOwnCard } from '../cards/get-card';
import type { Db, DbOrTx } from '../db/client';
import { inTransaction } from '../db/transaction';
import { validationError } from '../errors';
import { type Mode, parseInput } from '../validation';
import type { MessageStatus } from './message-kinds';
import { queueMessageOf } from './queue-message';
import { sendMessageNow } from './send-messages';

/**
 * A card issued with notify: its messages are on from now, and it gets its link (card_issued), in the issuing
 * transaction. Nothing is written for a card whose holder has no phone or email this business knows of.
 */
async function notifyNewCard(tx: DbOrTx, o: { businessId: number; mode: Mode; cardId: number }): Promise<void> {
  await tx.execute(sql`UPDATE cards SET messages_on = true WHERE id = ${o.cardId}`);
  const link = await newCardLink(tx, o);
  await queueMessageOf(tx, o.cardId, { link_url: link.url }, { kind: 'card_issued' });
}

/** notifyNewCard for a card just issued in this transaction, by its number. */
export async function notifyNewCardNumber(tx: DbOrTx, businessId: number, mode: Mode, cardNumber: string): Promise<void> {
  const { rows } = await tx.execute<{ id: string }>(sql`SELECT id FROM cards WHERE card_number = ${cardNumber} AND business_id = ${businessId}`);
  await notifyNewCard(tx, { businessId, mode, cardId: Number(rows[0].id) });
}

export const shareCardSchema = z.strictObject({
  channel: z.enum(['sms', 'email', 'none'], {
    error: (iss) => (iss.input === undefined ? 'channel is required.' : 'channel must be one of sms, email, none.'),
  }),
});

export interface SharedCard {
  link_url: string;
  /** The message's status; null for channel none (the business passes the link on itself). */
  status: MessageStatus | null;
  message_reference: string | null;
}

/**
 * POST /card/{card_number}/share: a new link (the old one stops working) and, by SMS or email, a message carrying it,
 * which also turns the card's messages on from now. `none` only answers the link.
 */
export async function shareCard(db: Db, o: { businessId: number; mode: Mode; cardNumber: string; input: unknown }): Promise<SharedCard> {
  const { channel } = parseInput(shareCardSchema, o.input);
  const shared = await inTransaction(db, async (tx) => {
    const card = await requireOwnCard(tx, o.businessId, o.mode, o.cardNumber, true);
    if (channel === 'email' && !card.email?.trim()) throw validationError('channel', 'This card holder has no email address.');
    const link = await newCardLink(tx, { businessId: o.businessId, mode: o.mode, cardId: card.id });
    if (channel === 'none') return { link_url: link.url, reference: null };
    await tx.execute(sql`UPDATE cards SET messages_on = true WHERE id = ${card.id}`);
    const [message] = await queueMessageOf(tx, card.id, { link_url: link.url }, { kind: 'new_link', only: channel });
    return { link_url: link.url, reference: message?.reference ?? null };
  });
  if (!shared.reference) return { link_url: shared.link_url, status: null, message_reference: null };
  // Test mode's message is only recorded: at once, so the answer says so. A live one is the worker's to send.
  if (o.mode === 'test') await sendMessageNow(db, shared.reference);
  const { rows } = await db.execute<{ status: MessageStatus }>(sql`SELECT status FROM cardholder_messages WHERE reference = ${shared.reference}`);
  return { link_url: shared.link_url, status: rows[0]?.status ?? 'queued', message_reference: shared.reference };
}
