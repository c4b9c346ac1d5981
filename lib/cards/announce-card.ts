import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Mode } from '../validation';
import { type LiveUpdate, liveUpdatesChannel } from '../webhooks/live-updates';

const pending = new Map<string, { latest: LiveUpdate; trailing: boolean }>();
const WINDOW_MS = 100;

/**
 * Tells open views of this business and mode that a card changed (created,
 * cancelled, disabled or enabled), so an open cards list or card page re-reads
 * it: cards have no webhook event to carry that. After the caller's commit, at
 * most one notice per business and mode per 100 ms per process (a burst
 * becomes one trailing notice), kept apart from the payout and payment notices
 * so neither swallows the other. Never throws: a lost notice only leaves a
 * list as it was until the next change or reload.
 */
export function announceCardChange(db: Db, businessId: number, mode: Mode, event: 'card.created' | 'card.updated', cardNumber: string): void {
  const channel = liveUpdatesChannel(businessId, mode);
  const update: LiveUpdate = { event, kind: 'other', cards: [cardNumber] };
  const send = (u: LiveUpdate) => void db.execute(sql`SELECT pg_notify(${channel}, ${JSON.stringify(u)})`).catch(() => {});
  const waiting = pending.get(channel);
  if (waiting) {
    waiting.latest = update;
    waiting.trailing = true;
    return;
  }
  send(update);
  const entry = { latest: update, trailing: false };
  pending.set(channel, entry);
  setTimeout(() => {
    pending.delete(channel);
    if (entry.trailing) send(entry.latest);
  }, WINDOW_MS).unref?.();
}
