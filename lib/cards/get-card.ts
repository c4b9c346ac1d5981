import type { DbOrTx } from '../db/client';
import { cardNotFound, ServiceError } from '../errors';
import type { Mode } from '../validation';
import { findOwnCard, toGiftCard, type CardRow, type GiftCard } from './card-view';

/** Blank path parameters are the spec's "Invalid card number"; anything else unknown is not found. */
export function checkCardNumberParam(cardNumber: string | undefined): string {
  const value = (cardNumber ?? '').trim();
  if (!value) throw new ServiceError('invalid_card_number', 'The card number is missing from the path.');
  return value;
}

export async function requireOwnCard(db: DbOrTx, businessId: number, mode: Mode, cardNumber: string, lock = false): Promise<CardRow> {
  const row = await findOwnCard(db, businessId, mode, checkCardNumberParam(cardNumber), lock);
  if (!row) throw cardNotFound();
  return row;
}

export async function getCard(db: DbOrTx, opts: { businessId: number; mode: Mode; cardNumber: string }): Promise<GiftCard> {
  return toGiftCard(await requireOwnCard(db, opts.businessId, opts.mode, opts.cardNumber));
}
