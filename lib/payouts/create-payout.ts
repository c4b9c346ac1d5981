import { eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ACTIVE } from '../cards/set-card-status';
import type { Db } from '../db/client';
import { counterIncrement } from '../db/list-counters';
import { compiledOnce, runCompiled } from '../db/prepared';
import { businesses } from '../db/schema';
import { inOneStatement } from '../db/transaction';
import { ServiceError, validationError } from '../errors';
import { computeFee, feeRuleUnchanged, feeSignature, type FeeRule } from '../fees/fee-schedule';
import { newReference } from '../ids';
import { businessAccountId, clearingAccountId, feeRevenueAccountId } from '../ledger/accounts';
import { checkPosting, postingCtes, postingValues, postingVerdict, type Actor, type Posting, type PostingVerdict } from '../ledger/post-transaction';
import { findBank } from '../rails/banks';
import { bankRailFor } from '../rails/bank-rail';
import { amountSchema, parseInput, type Mode } from '../validation';
import { eventCtes, eventValues } from '../webhooks/outbox';
import { payoutEventPayload, type EventCustomer } from '../webhooks/payloads';
import { payoutParties, type PayoutCard } from './payout-parties';
import { payoutEventInput, type PayoutRow, type PayoutType } from './payout-view';
import { settlePayout } from './settle-payout';

export interface CreatePayoutOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  input: unknown;
}

const DESTINATION_FIELDS: Record<PayoutType, string[]> = {
  b2b: ['merchant_id'],
  card_to_card: ['destination_card_number'],
  bank: ['bank_slug', 'account_number', 'account_name'],
};

const PAYERS: Record<PayoutType, readonly [string, string]> = {
  b2b: ['business', 'customer'],
  bank: ['business', 'customer'],
  card_to_card: ['sender', 'receiver'],
};

const text = (field: string, max = 64) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? `${field} is required.` : `${field} must be a string.`) })
    .trim()
    .min(1, { error: `${field} must not be empty.` })
    .max(max, { error: `${field} must be at most ${max} characters.` });

const base = {
  card_number: text('card_number'),
  amount: z.unknown().pipe(amountSchema),
  charge_payer: z.string({ error: 'charge_payer must be a string.' }).optional(),
};
export const schemas = {
  b2b: z.object({ ...base, merchant_id: text('merchant_id') }),
  card_to_card: z.object({ ...base, destination_card_number: text('destination_card_number') }),
  bank: z.object({ ...base, bank_slug: text('bank_slug'), account_number: text('account_number', 34), account_name: text('account_name', 200) }),
};

/** The destination type is decided by which fields were sent, before anything else is checked. */
export function payoutTypeOf(input: Record<string, unknown>): PayoutType {
  const sent = (f: string) => input[f] !== undefined && input[f] !== null;
  const types = (Object.keys(DESTINATION_FIELDS) as PayoutType[]).filter((t) => DESTINATION_FIELDS[t].some(sent));
  if (types.length > 1) {
    throw new ServiceError('invalid_payout_request', 'Send exactly one destination: merchant_id, destination_card_number, or the bank fields.');
  }
  if (types.length === 0) {
    throw validationError(
      'destination',
      'Send merchant_id (B2B), destination_card_number (card-to-card), or bank_slug, account_number and account_name (bank).',
    );
  }
  if (types[0] === 'bank' && !DESTINATION_FIELDS.bank.every(sent)) {
    throw new ServiceError('invalid_payout_request', 'bank_slug, account_number and account_name must be sent together.');
  }
  return types[0];
}

function checkSource(card: PayoutCard | undefined, businessId: number): PayoutCard {
  if (!card || card.business_id !== businessId) throw new ServiceError('card_not_found', 'No gift card with this number belongs to your business.');
  if (card.status !== ACTIVE) throw new ServiceError('card_disabled', 'The source gift card is disabled and cannot pay out.');
  return card;
}

const insufficient = (sourceAccountId: number) => (accountId: number) =>
  accountId === sourceAccountId
    ? new ServiceError('insufficient_balance', 'The source card does not hold enough funds for this payout and its fee.')
    : new ServiceError('insufficient_balance', 'An account in this payout does not hold enough funds.');

/** A closed account is a card cancelled since it was read. */
const closed = (sourceAccountId: number) => (accountId: number) =>
  accountId === sourceAccountId
    ? new ServiceError('card_not_found', 'No gift card with this number belongs to your business.')
    : new ServiceError('destination_card_not_found', 'No active gift card has the destination card number.');

/** A payout statement refused what was read before it; reading again answers why. */
class PartiesChanged extends Error {}

class Refused extends Error {
  constructor(readonly verdict: PostingVerdict & { payout_id: number | null }) {
    super('payout statement refused');
  }
}

/**
 * Why the statement's recheck refused the payout when its cards were read
 * just before: a card disabled or cancelled since. Undefined when both are
 * still active: the fee schedule changed instead.
 */
async function cardsChangedError(db: Db, sourceId: number, destinationId?: number): Promise<ServiceError | undefined> {
  const result = await db.execute<{ id: number; status: number; cancelled: boolean }>(sql`
    SELECT id, status, cancelled_at IS NOT NULL AS cancelled FROM cards WHERE id IN (${sourceId}, ${destinationId ?? sourceId})`);
  const byId = new Map(result.rows.map((r) => [Number(r.id), r]));
  const source = byId.get(sourceId);
  if (!source || source.cancelled) return new ServiceError('card_not_found', 'No gift card with this number belongs to your business.');
  if (source.status !== ACTIVE) return new ServiceError('card_disabled', 'The source gift card is disabled and cannot pay out.');
  if (destinationId === undefined) return undefined;
  const destination = byId.get(destinationId);
  if (!destination || destination.cancelled) return new ServiceError('destination_card_not_found', 'No active gift card has the destination card number.');
  if (destination.status !== ACTIVE) return new ServiceError('destination_card_disabled', 'The destination gift card is disabled.');
  return undefined;
}

const customerOf = (c: PayoutCard): EventCustomer => ({ first_name: c.first_name, last_name: c.last_name, email: c.email, phone_number: c.phone_number });

interface Prepared {
  type: PayoutType;
  source: PayoutCard;
  amount: number;
  fee: number;
  chargePayer: string;
  /** The payer that takes the fee off the amount received: business (B2B, bank) or receiver. */
  feeFromAmount: boolean;
  reference: string;
  rule: FeeRule | undefined;
  /** The cards and fee rule came from memory, unconfirmed until the statement checks them. */
  remembered: boolean;
  /** `sent` once the payout statement is sent: an answer given before it rests on what memory said. */
  progress: { sent: boolean };
}

interface PayoutExtras {
  destinationCardId?: number;
  destinationCardNumber?: string;
  merchantId?: string;
  bankSlug?: string;
  accountNumber?: string;
  accountName?: string;
  settleAfter?: Date | null;
}

const P = sql.placeholder;

/**
 * The payout statement, with or without its event (a pending bank payout
 * announces itself when it settles). Compiled once each: a payout only fills
 * the placeholders. bench/payouts also runs it through pgbench.
 */
export const payoutStatements = {
  withEvent: compiledOnce(() => payoutStatement(true)),
  withoutEvent: compiledOnce(() => payoutStatement(false)),
};

function payoutStatement(withEvent: boolean): SQL {
  // IN, not = ANY(array): a parameter array of unknown length made PostgreSQL plan the statement afresh on every call.
  const unchanged = sql`(SELECT count(*) FROM cards WHERE id IN (${P('sourceCardId')}, ${P('destinationCardId')}) AND status = ${ACTIVE} AND cancelled_at IS NULL)
    = 1 + (${P('destinationCardId')}::bigint IS NOT NULL)::int AND ${feeRuleUnchanged()}`;
  return sql`
    WITH ${postingCtes(unchanged, 3)},
    payout AS (
      INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference,
                           source_card_id, source_card_number, destination_card_number, merchant_id, bank_slug, account_number,
                           account_name, transaction_id, actor_type, actor_id, created_at, updated_at, completed_at, settle_after)
      SELECT ${P('businessId')}, ${P('mode')}, ${P('payoutType')}, ${P('status')}, ${P('currency')}, ${P('amount')}, ${P('serviceFee')},
             ${P('chargePayer')}, ${P('reference')}, ${P('sourceCardId')}, ${P('sourceCardNumber')}, ${P('destinationCardNumber')},
             ${P('merchantId')}, ${P('bankSlug')}, ${P('accountNumber')}, ${P('accountName')}, posted.id, ${P('actorType')}, ${P('actorId')},
             ${P('now')}::timestamptz, ${P('now')}::timestamptz, ${P('completedAt')}::timestamptz, ${P('settleAfter')}::timestamptz
      FROM posted
      RETURNING id
    ), payout_counted AS (
      ${counterIncrement('payouts', 'payout')}
    ), payout_audited AS (
      INSERT INTO audit_log (business_id, mode, actor_type, actor_id, action, target, details)
      SELECT ${P('businessId')}, ${P('mode')}, ${P('actorType')}, ${P('actorId')}, ${P('auditAction')}, ${P('reference')}, ${P('auditDetails')}::jsonb
      FROM payout
    )${withEvent ? sql`, ${eventCtes('payout')}` : sql``}
    SELECT ${postingVerdict}, (SELECT id FROM payout) AS payout_id FROM verdict v`;
}

/**
 * Moves the money and writes the payout row, its list total, its audit line
 * and (when final) its event, all in one statement: one round trip, atomic by
 * itself. The statement locks the ledger accounts first and reads them at
 * their latest: a card cancelled meanwhile has a closed account and refuses;
 * a card disabled before the statement started, or a fee rule changed, fails
 * the guard. Timestamps are taken here so the event can be written with the row.
 */
async function writePayout(
  db: Db,
  opts: CreatePayoutOptions,
  p: Prepared,
  kind: string,
  accounts: [number, number, number],
  extra: PayoutExtras,
  status: 'success' | 'pending',
) {
  const now = new Date();
  const payout: Omit<PayoutRow, 'id' | 'transactionId'> = {
    businessId: opts.businessId,
    mode: opts.mode,
    payoutType: p.type,
    status,
    currency: p.source.currency,
    amount: p.amount,
    serviceFee: p.fee,
    chargePayer: p.chargePayer,
    reference: p.reference,
    sourceCardId: p.source.id,
    sourceCardNumber: p.source.card_number,
    destinationCardNumber: extra.destinationCardNumber ?? null,
    merchantId: extra.merchantId ?? null,
    bankSlug: extra.bankSlug ?? null,
    accountNumber: extra.accountNumber ?? null,
    accountName: extra.accountName ?? null,
    isLedgerTopup: false,
    actorType: opts.actor.type,
    actorId: opts.actor.id,
    createdAt: now,
    updatedAt: now,
    completedAt: status === 'success' ? now : null,
    settleAfter: extra.settleAfter ?? null,
  };
  const posting = {
    mode: opts.mode,
    kind,
    businessId: opts.businessId,
    reference: p.reference,
    actor: opts.actor,
    postings: postings(...accounts, p),
    onInsufficient: insufficient(accounts[0]),
    onClosed: closed(accounts[0]),
  };
  // The payout row's fields fill the placeholders of the same name; its business, mode, reference and actor are the posting's.
  // Object.assign, not `{ ...a, key }`: Node 20's V8 takes microseconds for a spread followed by more properties.
  const values = Object.assign(postingValues(posting, 3), payout, {
    destinationCardId: extra.destinationCardId ?? null,
    feeKind: p.type,
    feeSignature: feeSignature(p.rule),
    now: now.toISOString(),
    completedAt: payout.completedAt?.toISOString() ?? null,
    settleAfter: payout.settleAfter?.toISOString() ?? null,
    auditAction: `payout.${p.type}.created`,
    auditDetails: JSON.stringify({ amount: p.amount, service_fee: p.fee, charge_payer: p.chargePayer, status }),
  });
  if (status === 'success') {
    Object.assign(
      values,
      eventValues({
        businessId: opts.businessId,
        mode: opts.mode,
        type: 'payout.success',
        payload: payoutEventPayload(payoutEventInput({ id: 0, transactionId: null, ...payout }, 'success', customerOf(p.source))),
        subjectReference: p.reference,
      }),
    );
  }
  const statement = status === 'success' ? payoutStatements.withEvent() : payoutStatements.withoutEvent();
  p.progress.sent = true;
  const verdict = await inOneStatement(db, async (q) => {
    const v = (await runCompiled<PostingVerdict & { payout_id: number | null }>(q, statement, values)).rows[0];
    // A refused statement wrote nothing: roll back, so an Idempotency-Key is not marked as if money had moved.
    if (v.transaction_id === null) throw new Refused(v);
    return v;
  }).catch((err) => {
    if (err instanceof Refused) return err.verdict;
    throw err;
  });
  if (!checkPosting(verdict, posting)) {
    throw (p.remembered ? undefined : await cardsChangedError(db, p.source.id, extra.destinationCardId)) ?? new PartiesChanged();
  }
  return Object.assign({ id: Number(verdict.payout_id), transactionId: Number(verdict.transaction_id) }, payout) satisfies PayoutRow;
}

/**
 * Source debit and destination credit for a payer rule: the fee is either
 * added to what the source pays or taken from what the destination gets.
 */
export function splitAmounts(amount: number, fee: number, feeFromAmount: boolean) {
  return feeFromAmount ? { debit: amount, credit: amount - fee } : { debit: amount + fee, credit: amount };
}

function postings(sourceAccount: number, destinationAccount: number, feeAccount: number, p: Prepared): Posting[] {
  const { debit, credit } = splitAmounts(p.amount, p.fee, p.feeFromAmount);
  return [
    { accountId: sourceAccount, amount: -debit },
    { accountId: destinationAccount, amount: credit },
    { accountId: feeAccount, amount: p.fee },
  ];
}

/** POST /card/payouts: card-to-card and B2B complete at once; bank payouts are debited now and settle later. */
export async function createPayout(db: Db, opts: CreatePayoutOptions) {
  if (typeof opts.input !== 'object' || opts.input === null) throw validationError('body', 'The request body must be a JSON object.');
  const type = payoutTypeOf(opts.input as Record<string, unknown>);
  const input = parseInput(schemas[type], opts.input) as z.output<typeof schemas.bank> & z.output<typeof schemas.b2b> & z.output<typeof schemas.card_to_card>;
  const [defaultPayer, otherPayer] = PAYERS[type];
  const chargePayer = input.charge_payer ?? defaultPayer;
  if (chargePayer !== defaultPayer && chargePayer !== otherPayer) {
    throw new ServiceError('invalid_charge_payer', `charge_payer must be ${defaultPayer} or ${otherPayer} for this payout type.`);
  }
  const feeFromAmount = chargePayer === (type === 'card_to_card' ? 'receiver' : 'business');
  if (type === 'card_to_card' && input.card_number === input.destination_card_number) {
    throw new ServiceError('same_card', 'The source and destination cards are the same card.');
  }
  if (type === 'bank' && !findBank(input.bank_slug)) {
    throw new ServiceError('payout_request_failed', 'The bank_slug is not one of GET /banks.');
  }

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
      const prepared: Prepared = { type, source, amount: input.amount, fee, chargePayer, feeFromAmount, reference: '', rule, remembered, progress };
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

async function cardToCard(db: Db, opts: CreatePayoutOptions, p: Prepared, destination: PayoutCard | undefined) {
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
    [p.source.account_id, destination.account_id, feeAccount],
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

async function businessToBusiness(db: Db, opts: CreatePayoutOptions, p: Prepared, merchantId: string) {
  const [merchant] = await db.select({ id: businesses.id }).from(businesses).where(eq(businesses.merchantId, merchantId));
  if (!merchant || merchant.id === opts.businessId) {
    throw new ServiceError('payout_request_failed', 'merchant_id must be the merchant id of another business.');
  }
  const [merchantAccount, feeAccount] = await Promise.all([
    businessAccountId(db, merchant.id, opts.mode, p.source.currency),
    feeRevenueAccountId(db, opts.mode, p.source.currency),
  ]);
  p.reference = newReference('b2b');
  const payout = await writePayout(db, opts, p, 'payout_b2b', [p.source.account_id, merchantAccount, feeAccount], { merchantId }, 'success');
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

async function bank(db: Db, opts: CreatePayoutOptions, p: Prepared, to: BankDestination) {
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
    [p.source.account_id, clearing, feeAccount],
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
