import { sql } from 'drizzle-orm';
import { requireOwnCard } from '../cards/get-card';
import type { DbOrTx } from '../db/client';
import { type PageRequest, pageCount } from '../pagination';
import type { Mode } from '../validation';
import { type MessageChannel, type MessageKind, type MessageStatus, maskAddress } from './message-kinds';

export interface CardMessage {
  message_reference: string;
  kind: MessageKind;
  channel: MessageChannel;
  to: string;
  text: string | null;
  status: MessageStatus;
  error: string | null;
  provider_message_id: string | null;
  created_at: string;
}

/** A message row as the lists show it (the address masked); a shop order's page lists its two the same way. */
export const toItem = (r: Record<string, unknown>): CardMessage => ({
  message_reference: String(r.reference),
  kind: r.kind as MessageKind,
  channel: r.channel as MessageChannel,
  to: maskAddress(String(r.to_address)),
  text: (r.text as string | null) ?? null,
  status: r.status as MessageStatus,
  error: (r.error as string | null) ?? null,
  provider_message_id: (r.provider_message_id as string | null) ?? null,
  created_at: new Date(r.created_at as string).toISOString(),
});

/** GET /card/{card_number}/messages: the card's messages, newest first, in the payout list's page object. */
export async function listCardMessages(db: DbOrTx, o: { businessId: number; mode: Mode; cardNumber: string; page: PageRequest }) {
  const card = await requireOwnCard(db, o.businessId, o.mode, o.cardNumber);
  return listMessagesOfCard(db, { businessId: o.businessId, mode: o.mode, cardId: card.id, page: o.page });
}

/** The dashboard's card page: a card it already read (a cancelled one too, which the API answers 404), by its id, in its business and mode. */
export async function listMessagesOfCard(db: DbOrTx, o: { businessId: number; mode: Mode; cardId: number; page: PageRequest }) {
  const mine = sql`card_id = ${o.cardId} AND business_id = ${o.businessId} AND mode = ${o.mode}`;
  const [rows, counted] = await Promise.all([
    db.execute<Record<string, unknown>>(sql`
      SELECT reference, kind, channel, to_address, text, status, error, provider_message_id, created_at
        FROM cardholder_messages WHERE ${mine}
       ORDER BY created_at DESC, id DESC LIMIT ${o.page.limit} OFFSET ${o.page.offset}`),
    db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM cardholder_messages WHERE ${mine}`),
  ]);
  const total = Number(counted.rows[0].total);
  const items: CardMessage[] = rows.rows.map(toItem);
  return { items, total, page: o.page.page, limit: o.page.limit, pages: pageCount(total, o.page.limit) };
}

export interface MessageFilters {
  status?: MessageStatus;
  kind?: MessageKind;
  /** Created at or after. */
  from?: Date;
  /** Created before. */
  to?: Date;
  /** Any part of the phone number or address it went to (digits compared as typed). */
  to_address?: string;
}

interface BusinessMessage extends CardMessage {
  /** None for a shop order's receipt: a message of the order, not of a card. */
  card_number: string | null;
  /** A shop order's gift or receipt. */
  order_reference: string | null;
}

/** The Messages page: every message of the business and mode, newest first, filtered, with its card and its shop order (a receipt has only the order). */
export async function listBusinessMessages(db: DbOrTx, o: { businessId: number; mode: Mode; filters: MessageFilters; page: PageRequest }) {
  const f = o.filters;
  const where = sql.join(
    [
      sql`m.business_id = ${o.businessId} AND m.mode = ${o.mode}`,
      f.status ? sql`m.status = ${f.status}` : undefined,
      f.kind ? sql`m.kind = ${f.kind}` : undefined,
      f.from ? sql`m.created_at >= ${f.from.toISOString()}::timestamptz` : undefined,
      f.to ? sql`m.created_at < ${f.to.toISOString()}::timestamptz` : undefined,
      f.to_address ? sql`m.to_address LIKE ${`%${f.to_address.replace(/[\\%_]/g, '\\$&')}%`}` : undefined,
    ].filter((c) => c !== undefined),
    sql` AND `,
  );
  const [rows, counted] = await Promise.all([
    db.execute<Record<string, unknown>>(sql`
      SELECT m.reference, m.kind, m.channel, m.to_address, m.text, m.status, m.error, m.provider_message_id, m.created_at, c.card_number,
             o.reference AS order_reference
        FROM cardholder_messages m LEFT JOIN cards c ON c.id = m.card_id LEFT JOIN shop_orders o ON o.id = m.order_id
       WHERE ${where}
       ORDER BY m.created_at DESC, m.id DESC LIMIT ${o.page.limit} OFFSET ${o.page.offset}`),
    db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM cardholder_messages m WHERE ${where}`),
  ]);
  const total = Number(counted.rows[0].total);
  const items: BusinessMessage[] = rows.rows.map((r) => ({
    ...toItem(r),
    card_number: (r.card_number as string | null) ?? null,
    order_reference: (r.order_reference as string | null) ?? null,
  }));
  return { items, total, page: o.page.page, limit: o.page.limit, pages: pageCount(total, o.page.limit) };
}
