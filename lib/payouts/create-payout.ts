import { eq } from 'drizzle-orm';
import { ACTIVE } from '../cards/card-status';
import type { Db } from '../db/client';
import { businesses } from '../db/schema';
import { cardNotFound, ServiceError } from '../errors';
import { computeFee } from '../fees/fee-schedule';
import { newReference } from '../ids';
import { businessAccountId, clearingAccountId, feeRevenueAccountId } from '../ledger/accounts';
import type { Posting } from '../ledger/post-transaction';
import type { Actor } from '../actor';
import { findBank } from '../rails/banks';
import { bankRailFor } from '../rails/bank-rail';
import type { Mode } from '../validation';
import { payoutParties, type PayoutCard } from './payout-parties';
import { parsePayoutRequest } from './payout-request';
import { settlePayout } from './settle-payout';
import { PartiesChanged, writePayout, type PreparedPayout } from './write-payout';

export interface CreatePayoutOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  input: unknown;
}

function checkSource(card: PayoutCard | undefined, businessId: number): PayoutCard {
  if (!card || card.business_id !== businessId) throw cardNotFound();
  if (card.status !== ACTIVE) throw new ServiceError('card_disabled', 'The source gift card is disabled and cannot pay out.');
  return card;
}

/**
 * Source debit and destination credit for a payer rule: the fee is either
 * added to what the source pays or taken from what the destination gets.
 */
export function splitAmounts(amount: number, fee: number, feeFromAmount: boolean) {
  return feeFromAmount ? { debit: amount, credit: amount - fee } : { debit: amount + fee, credit: amount };
}

function postings(p: PreparedPayout, destinationAccount: number, feeAccount: number): Posting[] {
  const { debit, credit } = splitAmounts(p.amount, p.fee, p.feeFromAmount);
  return [
    { accountId: p.source.account_id, amount: -debit },
    { accountId: destinationAccount, amount: credit },
    { accountId: feeAccount, amount: p.fee },
  ];
}

/** POST /card/payouts: card-to-card and B2B complete at once; bank payouts are debited now and settle later. */
export async function createPayout(db: Db, opts: CreatePayoutOptions) {
  const { type, input, chargePayer, feeFromAmount } = parsePayoutRequest(opts.input);
  const numbers = type === 'card_to_card' ? [input.card_number, input.destination_card_number] : [input.card_number];
  // What memory says of the cards and fee is confirmed by the payout statement; when it was wrong, read again and redo.
  for (let attempt = 1; ; attempt++) {
    const { rule, cards, remembered } = await payoutParties(db, opts.businessId, opts.mode, type, numbers, attempt > 1);
    const progress = { sent: false };
    try {
      const fee = computeFee(rule, input.amount);
      if (feeFromAmount && input.amount <= fee) {
        throw new ServiceError('amount_below_fee', `The amount must be greater than the service fee of ${fee}.`);
      }
      const source = checkSource(
        cards.find((c) => c.card_number === input.card_number),
        opts.businessId,
      );
      const prepared: PreparedPayout = { type, source, amount: input.amount, fee, chargePayer, feeFromAmount, reference: '', rule, remembered, progress };
      if (type === 'card_to_card')
        return await cardToCard(
          db,
          opts,
          prepared,
          cards.find((c) => c.card_number === input.destination_card_number),
        );
      if (type === 'b2b') return await businessToBusiness(db, opts, prepared, input.merchant_id);
      return await bank(db, opts, prepared, { bankSlug: input.bank_slug, accountNumber: input.account_number, accountName: input.account_name });
    } catch (err) {
      // A refusal by the statement, or an answer given before it from memory (a stale fee, a card disabled since), is checked against a fresh read.
      const unconfirmed = err instanceof PartiesChanged || (remembered && !progress.sent && err instanceof ServiceError);
      if (!unconfirmed) throw err;
      // A schedule edited under every attempt is no fault of the request: say so with a retryable answer, not a 500.
      if (attempt >= 3) {
        throw err instanceof PartiesChanged
          ? new ServiceError(
              'unavailable',
              'The fee schedule changed while this payout was being made, three times running. Nothing was moved; send the request again.',
            )
          : err;
      }
    }
  }
}

async function cardToCard(db: Db, opts: CreatePayoutOptions, p: PreparedPayout, destination: PayoutCard | undefined) {
  if (!destination) throw new ServiceError('destination_card_not_found', 'No active gift card has the destination card number.');
  if (destination.status !== ACTIVE) throw new ServiceError('destination_card_disabled', 'The destination gift card is disabled.');
  if (destination.currency !== p.source.currency) throw new ServiceError('currency_mismatch', 'The source and destination cards hold different currencies.');
  const feeAccount = await feeRevenueAccountId(db, opts.mode, p.source.currency);
  p.reference = newReference('c2c');
  const payout = await writePayout(
    db,
    opts,
    p,
    'payout_card_to_card',
    postings(p, destination.account_id, feeAccount),
    {
      destinationCardId: destination.id,
      destinationCardNumber: destination.card_number,
    },
    'success',
  );
  return {
    initiator_reference: payout.reference,
    source_card_number: payout.sourceCardNumber,
    destination_card_number: payout.destinationCardNumber,
    amount: payout.amount,
    service_fee: payout.serviceFee,
    charge_payer: payout.chargePayer,
    currency: payout.currency,
  };
}

async function businessToBusiness(db: Db, opts: CreatePayoutOptions, p: PreparedPayout, merchantId: string) {
  const [merchant] = await db.select({ id: businesses.id }).from(businesses).where(eq(businesses.merchantId, merchantId));
  if (!merchant || merchant.id === opts.businessId) {
    throw new ServiceError('payout_request_failed', 'merchant_id must be the merchant id of another business.');
  }
  const [merchantAccount, feeAccount] = await Promise.all([
    businessAccountId(db, merchant.id, opts.mode, p.source.currency),
    feeRevenueAccountId(db, opts.mode, p.source.currency),
  ]);
  p.reference = newReference('b2b');
  const payout = await writePayout(db, opts, p, 'payout_b2b', postings(p, merchantAccount, feeAccount), { merchantId }, 'success');
  return {
    provider_reference: payout.reference,
    status: 'SUCCESS',
    created_at: payout.createdAt.toISOString(),
    updated_at: payout.updatedAt.toISOString(),
  };
}

interface BankDestination {
  bankSlug: string;
  accountNumber: string;
  accountName: string;
}

async function bank(db: Db, opts: CreatePayoutOptions, p: PreparedPayout, to: BankDestination) {
  if (!findBank(to.bankSlug)!.currencies.includes(p.source.currency)) {
    throw new ServiceError('payout_request_failed', `The bank ${to.bankSlug} does not accept ${p.source.currency}.`);
  }
  const rail = bankRailFor(opts.mode);
  if (!rail) throw new ServiceError('failed_to_initiate_payout', 'No live bank payout provider is configured; nothing was debited.');
  p.reference = newReference('bnk');
  const [clearing, feeAccount] = await Promise.all([
    clearingAccountId(db, 'bank', opts.mode, p.source.currency),
    feeRevenueAccountId(db, opts.mode, p.source.currency),
  ]);
  const settleMs = rail.settleAfterMs();
  const payout = await writePayout(
    db,
    opts,
    p,
    'payout_bank',
    postings(p, clearing, feeAccount),
    { ...to, settleAfter: settleMs === null ? null : new Date(Date.now() + settleMs) },
    'pending',
  );
  // The rail hears of money only once it is set aside: a refused debit never reaches the bank.
  try {
    await rail.initiate({ reference: p.reference, ...to, currency: p.source.currency, amount: splitAmounts(p.amount, p.fee, p.feeFromAmount).credit });
  } catch (err) {
    console.error(`bank rail ${rail.name} refused payout ${p.reference}`, err);
    await settlePayout(db, { payoutId: payout.id, outcome: 'failed', actor: opts.actor });
    throw new ServiceError('failed_to_initiate_payout', 'The bank rail refused the payout; the debit was reversed and the payout failed.');
  }
  return { provider_reference: payout.reference, status: 'PENDING' };
}
