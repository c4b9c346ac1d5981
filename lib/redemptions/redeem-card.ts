import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import { ACTIVE } from '../cards/card-status';
import { findOwnCard } from '../cards/card-view';
import { requireOwnCard } from '../cards/get-card';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import { cardNotFound, ServiceError } from '../errors';
import { randomBase62 } from '../ids';
import { businessAccountId, feeRevenueAccountId } from '../ledger/accounts';
import { recordTransactionLocation, requireLocation } from '../locations/locations';
import type { Mode } from '../validation';
import { enqueueEvent } from '../webhooks/outbox';
import { redemptionEventPayload } from '../webhooks/payloads';
import { postRedemption } from './post-redemption';
import type { RedemptionRequest } from './redemption-request';

export interface RedeemCardOptions extends RedemptionRequest {
  businessId: number;
  mode: Mode;
  actor: Actor;
  cardNumber: string;
}

/** The answer to a redemption: the movement's reference and what the card holds after it. */
export interface Redemption {
  reference: string;
  card_number: string;
  currency: string;
  amount: number;
  fee: number;
  net_amount: number;
  merchant_reference?: string;
  available_amount: number;
  held_amount: number;
  created_at: string;
  /** The branch it was recorded at, null when none. */
  location_id: number | null;
}

/**
 * Spends `amount` of an active card at its own business: one transaction locks
 * the card (so a concurrent disable or cancel waits or wins), debits the card
 * (the posting refuses to take it below zero, and held money is already off
 * its balance), credits the business account with the amount less the
 * `redemption` fee, credits the fee to the provider, and writes the audit line
 * and `card.redeemed`. A redemption is not a payout: no payout limit applies.
 */
export async function redeemCard(db: Db, opts: RedeemCardOptions): Promise<Redemption> {
  const probe = await requireOwnCard(db, opts.businessId, opts.mode, opts.cardNumber);
  // Shared accounts are found or created before the money transaction opens (lib/ledger/accounts.ts).
  const business = await businessAccountId(db, probe.business_id, probe.mode, probe.currency);
  const feeRevenue = await feeRevenueAccountId(db, probe.mode, probe.currency);
  const merchantReference = opts.merchant_reference || undefined;
  const locationId = opts.location_id === undefined ? null : (await requireLocation(db, opts.businessId, opts.location_id)).id;

  return inTransaction(db, async (tx) => {
    const card = await findOwnCard(tx, opts.businessId, opts.mode, probe.card_number, true);
    if (!card) throw cardNotFound();
    if (card.status !== ACTIVE) throw new ServiceError('card_disabled', 'The card is disabled and cannot be redeemed.', { field: 'card_number' });
    const reference = `rdm_${randomBase62(24)}`;
    const posted = await postRedemption(tx, {
      card,
      amount: opts.amount,
      reference,
      actor: opts.actor,
      businessAccountId: business,
      feeRevenueAccountId: feeRevenue,
    });
    await recordTransactionLocation(tx, posted.transactionId, locationId);
    const { fee, balance } = posted;
    const createdAt = new Date();
    const redemption: Redemption = {
      reference,
      card_number: card.card_number,
      currency: card.currency,
      amount: opts.amount,
      fee,
      net_amount: opts.amount - fee,
      ...(merchantReference ? { merchant_reference: merchantReference } : {}),
      available_amount: balance,
      held_amount: Number(card.held),
      created_at: createdAt.toISOString(),
      location_id: locationId,
    };
    await enqueueEvent(tx, {
      businessId: card.business_id,
      mode: card.mode,
      type: 'card.redeemed',
      subjectReference: reference,
      payload: redemptionEventPayload({
        mode: card.mode,
        currency: card.currency,
        amount: opts.amount,
        fee,
        reference,
        merchantReference,
        cardNumber: card.card_number,
        availableAmount: balance,
        locationId,
        customer: { first_name: card.first_name, last_name: card.last_name, email: card.email, phone_number: card.phone_number },
        createdAt,
      }),
    });
    await recordAudit(tx, {
      businessId: card.business_id,
      mode: card.mode,
      actor: opts.actor,
      action: 'card.redeemed',
      target: card.card_number,
      details: {
        reference,
        amount: opts.amount,
        fee,
        currency: card.currency,
        balance_after: balance,
        transaction_id: posted.transactionId,
        ...(locationId !== null ? { location_id: locationId } : {}),
        ...(merchantReference ? { merchant_reference: merchantReference } : {}),
      },
    });
    return redemption;
  });
}
