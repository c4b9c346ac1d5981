import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import { selectCards } from '../cards/card-view';
import type { Tx } from '../db/client';
import { enqueueEvent } from '../webhooks/outbox';
import { type HoldEventType, holdEventPayload } from '../webhooks/payloads';
import type { TillHold } from './till-hold-view';

export interface AnnounceHoldOptions {
  type: HoldEventType;
  hold: TillHold;
  businessId: number;
  mode: 'test' | 'live';
  cardId: number;
  actor: Actor;
  /** Ledger transactions the audit line points to. */
  details?: Record<string, unknown>;
}

/**
 * The event and the audit line of a till hold's step, in the transaction that
 * moved its money: the event carries what the card holds after it.
 */
export async function announceHold(tx: Tx, opts: AnnounceHoldOptions): Promise<void> {
  const [card] = await selectCards(tx, sql`c.id = ${opts.cardId}`);
  const { hold } = opts;
  await enqueueEvent(tx, {
    businessId: opts.businessId,
    mode: opts.mode,
    type: opts.type,
    subjectReference: hold.hold_reference,
    payload: holdEventPayload({
      type: opts.type,
      mode: opts.mode,
      hold,
      availableAmount: Number(card.balance),
      customer: { first_name: card.first_name, last_name: card.last_name, email: card.email, phone_number: card.phone_number },
    }),
  });
  await recordAudit(tx, {
    businessId: opts.businessId,
    mode: opts.mode,
    actor: opts.actor,
    action: opts.type,
    target: hold.card_number,
    details: {
      hold_reference: hold.hold_reference,
      amount: hold.amount,
      currency: hold.currency,
      ...(opts.type === 'hold.captured' ? { captured_amount: hold.captured_amount, fee: hold.fee } : {}),
      balance_after: Number(card.balance),
      ...(hold.merchant_reference ? { merchant_reference: hold.merchant_reference } : {}),
      ...opts.details,
    },
  });
}
