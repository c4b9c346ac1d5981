import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import { ACTIVE } from '../cards/card-status';
import { type CardRow, findOwnCard } from '../cards/card-view';
import { requireOwnCard } from '../cards/get-card';
import type { Db, Tx } from '../db/client';
import { inTransaction } from '../db/transaction';
import { cardNotFound, ServiceError } from '../errors';
import { randomBase62 } from '../ids';
import { serviceFee } from '../fees/fee-schedule';
import { businessAccountId, feeRevenueAccountId } from '../ledger/accounts';
import { recordTransactionLocation, requireLocation } from '../locations/locations';
import { requestSpendCode, type SpendCodeRequired, spendCodeOver } from '../spend-codes/request-spend-code';
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

/** A redemption with everything looked up that must be found before its money transaction opens. */
export interface PreparedRedemption {
  businessId: number;
  mode: Mode;
  actor: Actor;
  cardNumber: string;
  amount: number;
  merchantReference?: string;
  locationId: number | null;
  businessAccountId: number;
  feeRevenueAccountId: number;
  currency: string;
}

/** The card's shared accounts, found or created before the money transaction opens (lib/ledger/accounts.ts). */
export async function prepareRedemption(
  db: Db,
  opts: Omit<PreparedRedemption, 'businessAccountId' | 'feeRevenueAccountId' | 'currency'>,
): Promise<PreparedRedemption> {
  const probe = await requireOwnCard(db, opts.businessId, opts.mode, opts.cardNumber);
  const business = await businessAccountId(db, probe.business_id, probe.mode, probe.currency);
  const feeRevenue = await feeRevenueAccountId(db, probe.mode, probe.currency);
  return { ...opts, cardNumber: probe.card_number, currency: probe.currency, businessAccountId: business, feeRevenueAccountId: feeRevenue };
}

/** The card of a redemption, locked, and active: a concurrent disable or cancel waits, or wins. */
async function lockSpendableCard(tx: Tx, p: PreparedRedemption): Promise<CardRow> {
  const card = await findOwnCard(tx, p.businessId, p.mode, p.cardNumber, true);
  if (!card) throw cardNotFound();
  if (card.status !== ACTIVE) throw new ServiceError('card_disabled', 'The card is disabled and cannot be redeemed.', { field: 'card_number' });
  return card;
}

/**
 * Spends `amount` of an active card at its own business: one transaction locks
 * the card (so a concurrent disable or cancel waits or wins), debits the card
 * (the posting refuses to take it below zero, and held money is already off
 * its balance), credits the business account with the amount less the
 * `redemption` fee, credits the fee to the provider, and writes the audit line
 * and `card.redeemed`. A redemption is not a payout: no payout limit applies.
 * Over the business's spend_code_over it spends nothing yet: the card is
 * checked as the spend would check it, and the answer is the confirmation
 * waiting for the cardholder's code (lib/spend-codes/).
 */
export async function redeemCard(db: Db, opts: RedeemCardOptions): Promise<Redemption | SpendCodeRequired> {
  const prepared = await prepareRedemption(db, {
    businessId: opts.businessId,
    mode: opts.mode,
    actor: opts.actor,
    cardNumber: opts.cardNumber,
    amount: opts.amount,
    merchantReference: opts.merchant_reference || undefined,
    locationId: null,
  });
  // The card is looked up first: an unknown card is 404 Gift card not found whatever location_id says.
  const locationId = opts.location_id === undefined ? null : (await requireLocation(db, opts.businessId, opts.location_id)).id;
  prepared.locationId = locationId;
  const over = await spendCodeOver(db, opts.businessId, opts.mode, prepared.currency);
  if (over !== null && opts.amount > over) {
    return inTransaction(db, async (tx) => {
      const card = await lockSpendableCard(tx, prepared);
      // Refused now, as the spend itself would refuse it, rather than after the holder has read out a code.
      if (Number(card.balance) < opts.amount) throw new ServiceError('insufficient_balance', 'The card does not hold this amount.', { field: 'amount' });
      const fee = await serviceFee(tx, card.business_id, card.mode, 'redemption', opts.amount);
      if (fee > opts.amount) {
        throw new ServiceError('amount_below_fee', `The redemption fee (${fee} minor units) is more than the amount.`, { field: 'amount' });
      }
      return requestSpendCode(tx, {
        businessId: opts.businessId,
        mode: opts.mode,
        actor: opts.actor,
        card,
        amount: opts.amount,
        merchantReference: prepared.merchantReference,
        locationId,
      });
    });
  }
  return inTransaction(db, (tx) => spendRedemption(tx, prepared));
}

/** The redemption's money, audit line and event, in the caller's transaction (a confirmed code completes one here too). */
export async function spendRedemption(tx: Tx, p: PreparedRedemption): Promise<Redemption> {
  const card = await lockSpendableCard(tx, p);
  const { merchantReference, locationId } = p;
  const reference = `rdm_${randomBase62(24)}`;
  const posted = await postRedemption(tx, {
    card,
    amount: p.amount,
    reference,
    actor: p.actor,
    businessAccountId: p.businessAccountId,
    feeRevenueAccountId: p.feeRevenueAccountId,
  });
  await recordTransactionLocation(tx, posted.transactionId, locationId);
  const { fee, balance } = posted;
  const createdAt = new Date();
  const redemption: Redemption = {
    reference,
    card_number: card.card_number,
    currency: card.currency,
    amount: p.amount,
    fee,
    net_amount: p.amount - fee,
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
      amount: p.amount,
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
    actor: p.actor,
    action: 'card.redeemed',
    target: card.card_number,
    details: {
      reference,
      amount: p.amount,
      fee,
      currency: card.currency,
      balance_after: balance,
      transaction_id: posted.transactionId,
      ...(locationId !== null ? { location_id: locationId } : {}),
      ...(merchantReference ? { merchant_reference: merchantReference } : {}),
    },
  });
  return redemption;
}
