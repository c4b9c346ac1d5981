import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { ACTIVE } from '../cards/card-status';
import { findOwnCard } from '../cards/card-view';
import { requireOwnCard } from '../cards/get-card';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import { cardNotFound, ServiceError } from '../errors';
import { newReference } from '../ids';
import { heldAccountId } from '../ledger/accounts';
import { recordTransactionLocation, requireLocation } from '../locations/locations';
import type { Mode } from '../validation';
import { announceHold } from './announce-hold';
import { placeHold } from './place-hold';
import type { HoldRequest } from './till-hold-request';
import type { TillHold } from './till-hold-view';

export interface PlaceTillHoldOptions extends HoldRequest {
  businessId: number;
  mode: Mode;
  actor: Actor;
  cardNumber: string;
}

/**
 * Sets `amount` of an active card aside for a till, until it is captured,
 * voided or expires: the card row is locked (a disable or cancel in flight
 * waits or wins), the money moves to the business's held account (never
 * taking the card below zero, so the sum of holds never passes the balance),
 * and `hold.created` goes out with it.
 */
export async function placeTillHold(db: Db, opts: PlaceTillHoldOptions): Promise<TillHold> {
  const probe = await requireOwnCard(db, opts.businessId, opts.mode, opts.cardNumber);
  const held = await heldAccountId(db, probe.business_id, probe.mode, probe.currency);
  const merchantReference = opts.merchant_reference || undefined;
  const locationId = opts.location_id === undefined ? null : (await requireLocation(db, opts.businessId, opts.location_id)).id;
  return inTransaction(db, async (tx) => {
    const card = await findOwnCard(tx, opts.businessId, opts.mode, probe.card_number, true);
    if (!card) throw cardNotFound();
    if (card.status !== ACTIVE) throw new ServiceError('card_disabled', 'The card is disabled: no new hold can be placed on it.', { field: 'card_number' });
    const reference = newReference('hld');
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + opts.expires_in_seconds * 1000);
    const placed = await placeHold(tx, {
      businessId: card.business_id,
      mode: card.mode,
      currency: card.currency,
      sourceAccountId: card.account_id,
      heldAccountId: held,
      cardId: card.id,
      amount: opts.amount,
      purpose: reference,
      actor: opts.actor,
      onInsufficient: () => new ServiceError('insufficient_balance', 'The card does not hold this amount available.', { field: 'amount' }),
      onClosed: () => cardNotFound(),
      till: { merchantReference: merchantReference ?? null, createdAt, expiresAt },
    });
    if (locationId !== null) {
      await tx.execute(sql`UPDATE holds SET location_id = ${locationId} WHERE id = ${placed.holdId}`);
      await recordTransactionLocation(tx, placed.transactionId, locationId);
    }
    const hold: TillHold = {
      hold_reference: reference,
      status: 'held',
      card_number: card.card_number,
      currency: card.currency,
      amount: opts.amount,
      captured_amount: 0,
      fee: 0,
      ...(merchantReference ? { merchant_reference: merchantReference } : {}),
      expires_at: expiresAt.toISOString(),
      created_at: createdAt.toISOString(),
      location_id: locationId,
    };
    await announceHold(tx, {
      type: 'hold.created',
      hold,
      businessId: card.business_id,
      mode: card.mode,
      cardId: card.id,
      actor: opts.actor,
      details: { transaction_id: placed.transactionId },
    });
    return hold;
  });
}
