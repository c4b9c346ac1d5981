import { ACTIVE } from '../cards/card-status';
import { cardNotFound, ServiceError } from '../errors';
import { computeFee, type FeeRule } from '../fees/fee-schedule';
import { accountLengthOf, accountNumberRefusal, findBank } from '../providers/banks';
import type { Currency } from '../validation';
import { destinationCardDisabled, destinationCardNotFound, sourceCardDisabled, sourceInsufficient } from './payout-refusals';
import { PAYERS, splitAmounts, takesFeeOffAmount } from './payout-rules';
import type { PayoutType } from './payout-view';

export interface PayerRule {
  chargePayer: string;
  /** The payer that takes the fee off the amount received: business (B2B, bank) or receiver. Else the fee is added to the debit. */
  feeFromAmount: boolean;
}

/** The payer a request names (or the type's default), and whether the fee comes off the amount. */
export function payerRule(type: PayoutType, chargePayer: string | undefined): PayerRule {
  const [defaultPayer, otherPayer] = PAYERS[type];
  const payer = chargePayer ?? defaultPayer;
  if (payer !== defaultPayer && payer !== otherPayer) {
    throw new ServiceError('invalid_charge_payer', `charge_payer must be ${defaultPayer} or ${otherPayer} for this payout type.`, { field: 'charge_payer' });
  }
  return { chargePayer: payer, feeFromAmount: takesFeeOffAmount(type, payer) };
}

/** What a card must be for a quote's checks: a payout's parties and the preview's alike. */
export interface QuoteCard {
  business_id: number;
  currency: Currency;
  status: number;
}

export interface QuoteInput {
  businessId: number;
  type: PayoutType;
  amount: number;
  payer: PayerRule;
  rule: FeeRule | undefined;
  /** The card to debit, undefined when no live card of this mode has the number. */
  source: QuoteCard | undefined;
  /** Card-to-card: the card to credit, undefined when none has the number. Left out, the destination is not checked. */
  destinationCard?: { card: QuoteCard | undefined };
  /** Bank: the chosen bank or wallet (a known slug). Left out, it is not checked. */
  bankSlug?: string;
  /** Bank: the destination account, checked against the bank's rule (accountNumberRefusal). Left out, it is not checked. */
  accountNumber?: string;
  /** The source's balance when known (the preview). A payout leaves this to its statement, which checks it under lock. */
  balance?: number;
}

export interface PayoutQuote {
  type: PayoutType;
  amount: number;
  fee: number;
  chargePayer: string;
  /** The fee comes off what the destination gets; else it is added to what leaves the card. */
  feeFromAmount: boolean;
  /** What leaves the source card. */
  debit: number;
  /** What the destination receives. */
  credit: number;
  /** The checks that fail, in the order a payout makes them: a payout refuses with the first, a preview shows them all. */
  refusals: ServiceError[];
}

/** The payout's fee and amounts, and every check the request fails: computed once, for the preview and the payout alike. */
export function quotePayout(q: QuoteInput): PayoutQuote {
  const fee = computeFee(q.rule, q.amount);
  const { debit, credit } = splitAmounts(q.amount, fee, q.payer.feeFromAmount);
  const refusals: ServiceError[] = [];
  if (q.payer.feeFromAmount && q.amount <= fee) {
    refusals.push(new ServiceError('amount_below_fee', `The amount must be greater than the service fee of ${fee}.`, { field: 'amount' }));
  }
  const source = q.source;
  if (!source || source.business_id !== q.businessId) refusals.push(cardNotFound());
  else if (source.status !== ACTIVE) refusals.push(sourceCardDisabled());
  if (q.type === 'card_to_card' && q.destinationCard) {
    const destination = q.destinationCard.card;
    if (!destination) refusals.push(destinationCardNotFound());
    else if (destination.status !== ACTIVE) refusals.push(destinationCardDisabled());
    else if (source && destination.currency !== source.currency) {
      refusals.push(new ServiceError('currency_mismatch', 'The source and destination cards hold different currencies.'));
    }
  }
  const bank = q.type === 'bank' && q.bankSlug !== undefined ? findBank(q.bankSlug) : undefined;
  if (q.type === 'bank' && q.bankSlug !== undefined && source && !bank?.currencies.includes(source.currency)) {
    refusals.push(new ServiceError('payout_request_failed', `The bank ${q.bankSlug} does not accept ${source.currency}.`, { field: 'bank_slug' }));
  }
  const account = bank && q.accountNumber !== undefined ? accountNumberRefusal(bank, accountLengthOf(bank.slug), q.accountNumber) : undefined;
  if (account) refusals.push(account);
  if (q.balance !== undefined && q.balance < debit) {
    refusals.push(sourceInsufficient('amount'));
  }
  return { type: q.type, amount: q.amount, fee, chargePayer: q.payer.chargePayer, feeFromAmount: q.payer.feeFromAmount, debit, credit, refusals };
}

/** B2B: the merchant must be another business (looked up by its merchant id). */
export function merchantRefusal(merchant: { id: number } | undefined, businessId: number): ServiceError | undefined {
  if (merchant && merchant.id !== businessId) return undefined;
  return new ServiceError('payout_request_failed', 'merchant_id must be the merchant id of another business.', { field: 'merchant_id' });
}
