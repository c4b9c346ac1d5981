import { sql } from 'drizzle-orm';
import { requireOwnCard } from '../cards/get-card';
import type { DbOrTx } from '../db/client';
import { type PageRequest, pageCount } from '../pagination';
import type { Mode } from '../validation';
import { type MessageChannel, type MessageKind, type MessageStatus, maskAddress } from './message-kinds';

interface CardMessage {
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

/** GET /card/{card_number}/messages: the card's messages, newest first, in the payout list's page object. */
export async function listCardMessages(db: DbOrTx, o: { businessId: number; mode: Mode; cardNumber: string; page: PageRequest }) {
  const card = await requireOwnCard(db, o.businessId, o.mode, o.cardNumber);
  const [rows, counted] = await Promise.all([
    db.execute<Record<string, unknown>>(sql`
      SELECT reference, kind, channel, to_address, text, status, error, provider_message_id, created_at
        FROM cardholder_messages WHERE card_id = ${card.id}
       ORDER BY created_at DESC, id DESC LIMIT ${o.page.limit} OFFSET ${o.page.offset}`),
    db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM cardholder_messages WHERE card_id = ${card.id}`),
  ]);
  const total = Number(counted.rows[0].total);
  const items: CardMessage[] = rows.rows.map((r) => ({
    message_reference: String(r.reference),
    kind: r.kind as MessageKind,
    channel: r.channel as MessageChannel,
    to: maskAddress(String(r.to_address)),
    text: (r.text as string | null) ?? null,
    status: r.status as MessageStatus,
    error: (r.error as string | null) ?? null,
    provider_message_id: (r.provider_message_id as string | null) ?? null,
    created_at: new Date(r.created_at as string).toISOString(),
  }));
  return { items, total, page: o.page.page, limit: o.page.limit, pages: pageCount(total, o.page.limit) };
}
