import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { businesses } from '../db/schema';
import { ServiceError } from '../errors';
import { newReference } from '../ids';
import { businessAccountId, clearingAccountId, feeRevenueAccountId } from '../ledger/accounts';
import type { Posting } from '../ledger/post-transaction';
import type { Actor } from '../actor';
import { bankRailFor } from '../rails/bank-rail';
import type { Mode } from '../validation';
import { payoutParties, type PayoutCard } from './payout-parties';
import { merchantRefusal, quotePayout, type PayoutQuote } from './payout-quote';
import { bankPayoutAnswer, businessPayoutAnswer, cardToCardAnswer } from './payout-answer';
import { parsePayoutRequest } from './payout-request';
import { settlePayout } from './settle-payout';
import { PartiesChanged, writePayout, type PreparedPayout } from './write-payout';
import { LIVE_NOT_CONFIGURED } from '../rails/chapa/config';
import { RailRefused } from '../rails/rail-refused';

/** The payout detail page splits a stored payout's amounts with the quote's rule. */

export interface CreatePayoutOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  input: unknown;
}

/** The ledger lines of a quoted payout: the source loses the quote's debit, the destination gets its credit, the fee account its fee. */
function postings(p: PreparedPayout, q: PayoutQuote, destinationAccount: number, feeAccount: number): Posting[] {
  return [
    { accountId: p.source.account_id, amount: -q.debit },
    { accountId: destinationAccount, amount: q.credit },
    { accountId: feeAccount, amount: q.fee },
  ];
}

/** POST /card/payouts: card-to-card and B2B complete at once; bank payouts are debited now and settle later. */
export async function createPayout(db: Db, opts: CreatePayoutOptions) {
  const { type, input, chargePayer, feeFromAmount } = parsePayoutRequest(opts.input);
  const payer = { chargePayer, feeFromAmount };
  const numbers = type === 'card_to_card' ? [input.card_number, input.destination_card_number] : [input.card_number];
  // What memory says of the cards and fee is confirmed by the payout statement; when it was wrong, read again and redo.
  for (let attempt = 1; ; attempt++) {
    const { rule, cards, remembered } = await payoutParties(db, opts.businessId, opts.mode, type, numbers, attempt > 1);
    const progress = { sent: false };
    try {
      const source = cards.find((c) => c.card_number === input.card_number);
      const destination = type === 'card_to_card' ? cards.find((c) => c.card_number === input.destination_card_number) : undefined;
      // The same quote as the dashboard's preview: fee, debit, credit and the checks, in the order they refuse.
      const quote = quotePayout({
        businessId: opts.businessId,
        type,
        amount: input.amount,
        payer,
        rule,
        source,
        destinationCard: type === 'card_to_card' ? { card: destination } : undefined,
        bankSlug: type === 'bank' ? input.bank_slug : undefined,
      });
      if (quote.refusals.length > 0) throw quote.refusals[0];
      const prepared: PreparedPayout = {
        type,
        source: source!,
        amount: input.amount,
        fee: quote.fee,
        chargePayer,
        feeFromAmount,
        reference: '',
        rule,
        remembered,
        progress,
      };
      if (type === 'card_to_card') return await cardToCard(db, opts, prepared, quote, destination!);
      if (type === 'b2b') return await businessToBusiness(db, opts, prepared, quote, input.merchant_id);
      return await bank(db, opts, prepared, quote, { bankSlug: input.bank_slug, accountNumber: input.account_number, accountName: input.account_name });
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

async function cardToCard(db: Db, opts: CreatePayoutOptions, p: PreparedPayout, q: PayoutQuote, destination: PayoutCard) {
  const feeAccount = await feeRevenueAccountId(db, opts.mode, p.source.currency);
  p.reference = newReference('c2c');
  const payout = await writePayout(
    db,
    opts,
    p,
    'payout_card_to_card',
    postings(p, q, destination.account_id, feeAccount),
    {
      destinationCardId: destination.id,
      destinationCardNumber: destination.card_number,
    },
    'success',
  );
  return cardToCardAnswer(payout);
}

async function businessToBusiness(db: Db, opts: CreatePayoutOptions, p: PreparedPayout, q: PayoutQuote, merchantId: string) {
  const [merchant] = await db.select({ id: businesses.id }).from(businesses).where(eq(businesses.merchantId, merchantId));
  const refused = merchantRefusal(merchant, opts.businessId);
  if (refused) throw refused;
  const [merchantAccount, feeAccount] = await Promise.all([
    businessAccountId(db, merchant.id, opts.mode, p.source.currency),
    feeRevenueAccountId(db, opts.mode, p.source.currency),
  ]);
  p.reference = newReference('b2b');
  const payout = await writePayout(db, opts, p, 'payout_b2b', postings(p, q, merchantAccount, feeAccount), { merchantId }, 'success');
  return businessPayoutAnswer(payout);
}

interface BankDestination {
  bankSlug: string;
  accountNumber: string;
  accountName: string;
}

async function bank(db: Db, opts: CreatePayoutOptions, p: PreparedPayout, q: PayoutQuote, to: BankDestination) {
  const rail = bankRailFor(opts.mode);
  if (!rail) throw new ServiceError('failed_to_initiate_payout', `${LIVE_NOT_CONFIGURED} Nothing was debited.`);
  p.reference = newReference('bnk');
  const instruction = { reference: p.reference, ...to, currency: p.source.currency, amount: q.credit };
  const queued = await rail.prepare?.(instruction);
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
    postings(p, q, clearing, feeAccount),
    { ...to, settleAfter: settleMs === null ? null : new Date(Date.now() + settleMs), railRequest: queued && { ...queued, amount: q.credit } },
    'pending',
  );
  // The rail hears of money only once it is set aside: a refused debit never reaches the bank.
  try {
    await rail.initiate(instruction, db);
  } catch (err) {
    // Only the rail's own refusal fails the payout; any other error (ours, or not knowing) leaves it pending for the rail's retries.
    if (!(err instanceof RailRefused)) {
      console.error(`bank rail ${rail.name}: payout ${p.reference} left pending`, err);
      return bankPayoutAnswer(payout);
    }
    console.error(`bank rail ${rail.name} refused payout ${p.reference}`, err);
    await settlePayout(db, { payoutId: payout.id, outcome: 'failed', actor: opts.actor });
    throw new ServiceError('failed_to_initiate_payout', 'The bank rail refused the payout; the debit was reversed and the payout failed.');
  }
  return bankPayoutAnswer(payout);
}
