import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Mode } from '../validation';
import { type LiveUpdate, liveUpdatesChannel } from '../webhooks/live-updates';

export type CardChange = 'card.created' | 'card.updated';

const pending = new Map<string, { event: CardChange; cards: Set<string>; trailing: boolean }>();
const WINDOW_MS = 100;

/**
 * Tells open views of this business and mode that a card changed (created,
 * cancelled, disabled or enabled), so an open cards list or card page re-reads
 * it: cards have no webhook event to carry that. After the caller's commit, at
 * most one notice per business and mode per 100 ms per process (a burst
 * becomes one trailing notice, naming its card only when it was one card, so
 * every open card page of the burst re-reads), kept apart from the payout and
 * payment notices so neither swallows the other. Never throws: a lost notice
 * only leaves a list as it was until the next change or reload.
 */
export function announceCardChange(db: Db, businessId: number, mode: Mode, event: CardChange, cardNumber: string): void {
  const channel = liveUpdatesChannel(businessId, mode);
  const send = (u: LiveUpdate) => void db.execute(sql`SELECT pg_notify(${channel}, ${JSON.stringify(u)})`).catch(() => {});
  const waiting = pending.get(channel);
  if (waiting) {
    waiting.trailing = true;
    waiting.cards.add(cardNumber);
    if (event === 'card.created') waiting.event = event;
    return;
  }
  send({ event, kind: 'other', cards: [cardNumber] });
  const entry = { event, cards: new Set<string>(), trailing: false };
  pending.set(channel, entry);
  setTimeout(() => {
    pending.delete(channel);
    if (entry.trailing) send({ event: entry.event, kind: 'other', ...(entry.cards.size === 1 && { cards: [...entry.cards] }) });
  }, WINDOW_MS).unref?.();
}
