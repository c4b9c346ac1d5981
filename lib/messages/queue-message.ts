import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { enqueueJobsSql } from '../jobs/job-queue';
import type { MessageChannel, MessageKind } from './message-kinds';

/**
 * Tries of one message before it is failed: on the queue's capped backoff (the first retry after 30 s, the second
 * a minute later, then doubling to ten minutes) about an hour of 5xx and 429 answers.
 */
export const MESSAGE_MAX_ATTEMPTS = 10;

export interface QueueMessageOptions {
  kind: MessageKind;
  /**
   * A message someone asked for (a share): sent on that channel whatever the card's and the business's switches.
   * Otherwise only to a card whose messages are on, of a kind the business has not turned off, on every channel
   * the card has (SMS to its phone, email when the business gave it one).
   */
  only?: MessageChannel;
  /** One message per key and channel, ever (an expiry reminder). */
  dedupeKey?: string;
}

export interface QueuedMessage {
  reference: string;
  channel: MessageChannel;
}

/**
 * The messages' rows and their `cardholder_message` jobs as CTEs of a caller's statement, named `<name>` and
 * `<name>_jobs`: `cards` selects (card_id, facts), one message per card and channel; facts (jsonb) hold what the text
 * needs beyond the card and its business (transaction_id: the movement; link_url). Both commit with the caller's
 * statement or not at all; the job fills in the text and sends it (test mode only records it).
 */
export function queueMessagesCtes(name: string, cards: SQL, o: QueueMessageOptions): SQL {
  const rows = sql.identifier(name);
  const allowed = o.only ? sql`ch.channel = ${o.only}` : sql`c.messages_on AND NOT (${o.kind} = ANY(b.message_kinds_off))`;
  return sql`${rows} AS (
      INSERT INTO cardholder_messages (reference, business_id, mode, card_id, kind, channel, to_address, facts, dedupe_key)
      SELECT 'chm_' || replace(gen_random_uuid()::text, '-', ''), c.business_id, c.mode, c.id, ${o.kind}, ch.channel, ch.to_address,
             q.facts, ${o.dedupeKey ?? null}::text || ':' || ch.channel
      FROM (${cards}) q(card_id, facts)
      JOIN cards c ON c.id = q.card_id
      JOIN businesses b ON b.id = c.business_id
      JOIN customers cu ON cu.id = c.customer_id
      LEFT JOIN customer_names n ON n.business_id = c.business_id AND n.customer_id = c.customer_id
      CROSS JOIN LATERAL (VALUES ('sms', cu.phone_number), ('email', nullif(trim(n.email), ''))) ch(channel, to_address)
      WHERE ch.to_address IS NOT NULL AND c.cancelled_at IS NULL AND ${allowed}
      ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
      RETURNING reference, business_id, mode, channel
    ), ${sql.identifier(`${name}_jobs`)} AS (
      ${enqueueJobsSql('cardholder_message', sql`SELECT reference, business_id, mode FROM ${rows}`, { ownFirstTry: false, maxAttempts: MESSAGE_MAX_ATTEMPTS })}
    )`;
}

/** queueMessagesCtes on its own, in the caller's transaction: the messages it wrote (none for a card whose messages are off). */
export async function queueCardMessages(tx: DbOrTx, cards: SQL, o: QueueMessageOptions): Promise<QueuedMessage[]> {
  const { rows } = await tx.execute<{ reference: string; channel: MessageChannel }>(
    sql`WITH ${queueMessagesCtes('queued', cards, o)} SELECT reference, channel FROM queued`,
  );
  return rows;
}

/** A movement of a card's money (its ledger transaction): money added or spent, told to every card it touched whose messages are on. */
export async function queueMoneyMessages(tx: DbOrTx, o: { accountIds: number[]; transactionId: number; kind: 'money_added' | 'money_spent' }): Promise<void> {
  if (o.accountIds.length === 0) return;
  await queueCardMessages(
    tx,
    sql`SELECT id, jsonb_build_object('transaction_id', ${o.transactionId}::bigint) FROM cards
        WHERE account_id = ANY(${sql.param(o.accountIds)}::bigint[]) AND messages_on`,
    { kind: o.kind },
  );
}

/** One card's message with these facts, in the caller's transaction. */
export const queueMessageOf = (tx: DbOrTx, cardId: number, facts: Record<string, unknown>, o: QueueMessageOptions) =>
  queueCardMessages(tx, sql`SELECT ${cardId}::bigint, ${JSON.stringify(facts)}::jsonb`, o);
