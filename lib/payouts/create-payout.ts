import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { ACTIVE } from '../cards/card-status';
import type { Db, DbOrTx } from '../db/client';
import type { FeeRule } from '../fees/fee-schedule';
import { cardNotFound, ServiceError } from '../errors';
import type { Posting } from '../ledger/post-transaction';
import type { Mode } from '../validation';
import { answerWritten, planDestination, type DestinationPlan } from './payout-destinations';
import { payoutParties, type PayoutCard, type PayoutParties } from './payout-parties';
import { quotePayout, type PayoutQuote } from './payout-quote';
import { destinationCardDisabled, destinationCardNotFound, sourceCardDisabled } from './payout-refusals';
import { parsePayoutRequest, type PayoutRequest } from './payout-request';
import { countedCall } from '../observability/metrics';
import type { PayoutRow } from './payout-view';
import { writePayout, type PreparedPayout } from './write-payout';

export interface CreatePayoutOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  input: unknown;
  /** Run inside a caller's transaction: a bank payout's rail is told after that commits (lib/approvals/decide-approval.ts). */
  railAfterCommit?: boolean;
  /** Inside a batch's transaction: open views are told once, by the batch, after it commits. */
  quiet?: boolean;
  /** A batch's one fee revenue shard (feeRevenueAccountId). */
  feeShard?: number;
}

export type WritePayoutOptions = Omit<CreatePayoutOptions, 'input'>;

/** A payout written by its statement, with what its answer still needs (a bank payout's rail). */
export interface WrittenPayout {
  plan: DestinationPlan;
  payout: PayoutRow;
}

/**
 * The first attempt may act on memory; the second reads afresh and fails only
 * if the fee schedule is edited between its read and its statement, a few
 * milliseconds; a third such race is someone editing in a loop, and the payout
 * then answers 503 (nothing moved, safe to send again) rather than holding on.
 */
const MAX_ATTEMPTS = 3;

/**
 * POST /card/payouts: card-to-card and B2B complete at once; bank payouts are
 * debited now and settle later. Each attempt goes through these steps:
 *
 *   read     the fee rule and the cards (payoutParties), from this process's
 *            memory when it holds them all ("remembered"), else one round trip
 *   quote    the fee, the amounts and the checks, as the dashboard's preview
 *            shows them, then the destination (planDestination)
 *   write    the payout statement (writePayout): one round trip that locks the
 *            accounts, re-checks the cards, the fee rule and the API key, and
 *            writes everything or nothing
 *   verdict  what the statement found (payoutVerdict)
 *
 * and ends in one of
 *
 *   done     written: the type's answer (a bank payout first tells its rail)
 *   refuse   an error that stands: found by the statement, which sees the
 *            latest rows, or by a check on parties read afresh
 *   retry    the next attempt, reading afresh: what memory said was not
 *            confirmed, or a fresh read's fee rule was edited before its
 *            statement ran
 *
 * Remembered parties are a guess that only the statement confirms: any
 * refusal given before the statement on them is retried, never answered.
 */
export async function createPayout(db: Db, opts: CreatePayoutOptions) {
  const request = parsePayoutRequest(opts.input);
  return countedCall('payouts', { type: request.type, mode: opts.mode }, async () => {
    const { plan, payout } = await writeRequestedPayout(db, opts, request);
    return answerWritten(db, opts, plan, payout);
  });
}

/**
 * createPayout's attempts for a parsed request, up to the written payout (done) or its refusal; tells no rail.
 * `statementDb` runs the payout statement (a batch's transaction); reads and shared accounts go through `db`,
 * so an account created for a batch that rolls back is never remembered.
 */
export async function writeRequestedPayout(db: Db, opts: WritePayoutOptions, request: PayoutRequest, statementDb: DbOrTx = db): Promise<WrittenPayout> {
  const numbers = partyNumbers(request);
  for (let attempt = 1; ; attempt++) {
    // read
    const parties = await payoutParties(db, opts.businessId, opts.mode, request.type, numbers, attempt > 1);

    // quote
    let quoted: QuotedPayout;
    try {
      quoted = await quoteAndPlan(db, opts, request, parties);
    } catch (err) {
      if (!(parties.remembered && err instanceof ServiceError)) throw err; // refuse
      continue; // retry: memory's answer, unconfirmed (only a first attempt acts on memory)
    }
    const { p, plan, postings } = quoted;

    // write, verdict
    const written = await writePayout(statementDb, opts, p, plan.kind, postings, plan.extra, plan.status);
    if (written instanceof ServiceError) throw written; // refuse
    if (written !== 'parties_changed') return { plan, payout: written }; // done

    // parties_changed. Parties read afresh changed in the moment before the statement: a card (refuse), else the fee rule (retry).
    if (!parties.remembered) {
      const why = await whyCardsRefused(db, p.source.id, plan.extra.destinationCardId);
      if (why) throw why; // refuse
    }
    if (attempt === MAX_ATTEMPTS) {
      throw new ServiceError(
        'unavailable',
        'The fee schedule changed while this payout was being made, three times running. Nothing was moved; send the request again.',
      );
    }
    // retry
  }
}

/** The card numbers a payout reads: its source and, card to card, its destination. */
export const partyNumbers = ({ type, input }: PayoutRequest) =>
  type === 'card_to_card' ? [input.card_number, input.destination_card_number] : [input.card_number];

/** A payout quoted and planned, ready for its statement. */
export interface QuotedPayout {
  p: PreparedPayout;
  plan: DestinationPlan;
  postings: Posting[];
}

/** The quote step of an attempt on the parties read: refuses with the quote's first refusal or the destination's. */
export async function quoteAndPlan(db: Db, opts: WritePayoutOptions, request: PayoutRequest, parties: PayoutParties): Promise<QuotedPayout> {
  const { input } = request;
  const source = parties.cards.find((c) => c.card_number === input.card_number);
  const destinationCard = request.type === 'card_to_card' ? parties.cards.find((c) => c.card_number === input.destination_card_number) : undefined;
  const quote = quotePayoutOf(opts, request, parties.rule, source, destinationCard);
  // The quote refused a missing source.
  const p = preparedPayout(request, parties.rule, source!, quote);
  const plan = await planDestination(db, opts, request, p, quote, destinationCard);
  return { p, plan, postings: payoutPostings(p, quote, plan) };
}

/** The same quote as the dashboard's preview: fee, debit, credit and the checks, refusing with the first that fails. */
function quotePayoutOf(
  opts: WritePayoutOptions,
  request: PayoutRequest,
  rule: FeeRule | undefined,
  source: PayoutCard | undefined,
  destinationCard: PayoutCard | undefined,
) {
  const { type, input } = request;
  const quote = quotePayout({
    businessId: opts.businessId,
    type,
    amount: input.amount,
    payer: request,
    rule,
    source,
    destinationCard: type === 'card_to_card' ? { card: destinationCard } : undefined,
    bankSlug: type === 'bank' ? input.bank_slug : undefined,
    accountNumber: type === 'bank' ? input.account_number : undefined,
  });
  if (quote.refusals.length > 0) throw quote.refusals[0];
  return quote;
}

function preparedPayout(request: PayoutRequest, rule: FeeRule | undefined, source: PayoutCard, q: PayoutQuote): PreparedPayout {
  return {
    type: request.type,
    source,
    amount: request.input.amount,
    fee: q.fee,
    chargePayer: request.chargePayer,
    feeFromAmount: request.feeFromAmount,
    reference: '',
    rule,
  };
}

/** The ledger lines of a quoted payout: the source loses the quote's debit, the destination gets its credit, the fee account its fee. */
function payoutPostings(p: PreparedPayout, q: PayoutQuote, plan: DestinationPlan): Posting[] {
  return [
    { accountId: p.source.account_id, amount: -q.debit },
    { accountId: plan.destinationAccount, amount: q.credit },
    { accountId: plan.feeAccount, amount: q.fee },
  ];
}

/**
 * Why the statement's guard refused cards read just before it: one disabled
 * or cancelled since. Undefined when both are still active: the fee schedule
 * changed instead.
 */
async function whyCardsRefused(db: Db, sourceId: number, destinationId?: number): Promise<ServiceError | undefined> {
  const result = await db.execute<{ id: number; status: number; cancelled: boolean }>(sql`
    SELECT id, status, cancelled_at IS NOT NULL AS cancelled FROM cards WHERE id IN (${sourceId}, ${destinationId ?? sourceId})`);
  const byId = new Map(result.rows.map((r) => [Number(r.id), r]));
  const source = byId.get(sourceId);
  if (!source || source.cancelled) return cardNotFound();
  if (source.status !== ACTIVE) return sourceCardDisabled();
  if (destinationId === undefined) return undefined;
  const destination = byId.get(destinationId);
  if (!destination || destination.cancelled) return destinationCardNotFound();
  if (destination.status !== ACTIVE) return destinationCardDisabled();
  return undefined;
}
