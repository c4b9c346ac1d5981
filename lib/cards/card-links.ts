import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { appUrl, linkTokenHash, newLinkToken } from '../link-token';
import type { Mode } from '../validation';

export interface CardLink {
  token: string;
  url: string;
}

export const cardLinkUrl = (token: string) => `${appUrl()}/c/${token}`;

/**
 * Makes the card's link and ends the one before it (the old link stops working at once). Call it inside the
 * transaction that decides to share the card, so the link and what announces it commit together.
 */
export async function newCardLink(tx: DbOrTx, opts: { businessId: number; mode: Mode; cardId: number }): Promise<CardLink> {
  await endCardLinks(tx, opts.cardId);
  const { token, hash } = newLinkToken();
  await tx.execute(sql`
    INSERT INTO card_links (business_id, mode, card_id, token_hash)
    VALUES (${opts.businessId}, ${opts.mode}, ${opts.cardId}, ${hash})`);
  return { token, url: cardLinkUrl(token) };
}

/** Ends the card's live link, if it has one: after its phone number is corrected, or before a new link. */
export async function endCardLinks(tx: DbOrTx, cardId: number): Promise<void> {
  await tx.execute(sql`UPDATE card_links SET ended_at = now() WHERE card_id = ${cardId} AND ended_at IS NULL`);
}

export interface LinkedCard {
  businessId: number;
  mode: Mode;
  cardId: number;
  cardNumber: string;
}

/** The card a live link opens; none for a token of the wrong shape (not looked up), an unknown or ended one, or a card cancelled or past its expiry. */
export async function cardOfLinkToken(db: DbOrTx, token: string): Promise<LinkedCard | null> {
  const hash = linkTokenHash(token);
  if (!hash) return null;
  const found = await db.execute<{ business_id: number; mode: Mode; card_id: string; card_number: string }>(sql`
    SELECT c.business_id, c.mode, c.id AS card_id, c.card_number
      FROM card_links l JOIN cards c ON c.id = l.card_id
     WHERE l.token_hash = ${hash} AND l.ended_at IS NULL
       AND c.cancelled_at IS NULL AND c.expired_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > now())`);
  const row = found.rows[0];
  return row ? { businessId: row.business_id, mode: row.mode, cardId: Number(row.card_id), cardNumber: row.card_number } : null;
}
