import { sql } from 'drizzle-orm';
import { ACTIVE } from '../cards/card-status';
import type { Db } from '../db/client';
import { runCompiled } from '../db/prepared';
import { inOneStatement } from '../db/transaction';
import { cardNotFound, ServiceError } from '../errors';
import { feeSignature, type FeeRule } from '../fees/fee-schedule';
import { checkPosting, postingValues, type Posting } from '../ledger/post-transaction';
import type { Actor } from '../actor';
import { limitExceededError } from '../limits/limit-refusal';
import type { Mode } from '../validation';
import { announceCreated } from '../webhooks/live-updates';
import { eventValues } from '../webhooks/outbox';
import { payoutEventPayload, type EventCustomer } from '../webhooks/payloads';
import type { PayoutCard } from './payout-parties';
import { payoutStatements, type PayoutStatementRow } from './payout-statement';
import { destinationCardDisabled, destinationCardNotFound, sourceCardDisabled, sourceInsufficient } from './payout-refusals';
import { payoutEventInput, type PayoutRow, type PayoutType } from './payout-view';

/** A payout checked against its request and the parties read, shared by createPayout's attempt and its write. */
export interface PreparedPayout {
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

export interface PayoutExtras {
  destinationCardId?: number;
  destinationCardNumber?: string;
  merchantId?: string;
  bankSlug?: string;
  accountNumber?: string;
  accountName?: string;
  settleAfter?: Date | null;
  /** Queues the provider request with the debit (a live bank payout); the provider's own code for the bank. */
  railRequest?: { provider: string; bankCode: string; amount: number };
}

/** A payout statement refused what was read before it; reading again answers why. */
export class PartiesChanged extends Error {}

class Refused extends Error {
  constructor(readonly verdict: PayoutStatementRow) {
    super('payout statement refused');
  }
}

const insufficient = (sourceAccountId: number) => (accountId: number) =>
  accountId === sourceAccountId ? sourceInsufficient() : new ServiceError('insufficient_balance', 'An account in this payout does not hold enough funds.');

/** A closed account is a card cancelled since it was read. */
const closed = (sourceAccountId: number) => (accountId: number) => (accountId === sourceAccountId ? cardNotFound() : destinationCardNotFound());

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
  if (!source || source.cancelled) return cardNotFound();
  if (source.status !== ACTIVE) return sourceCardDisabled();
  if (destinationId === undefined) return undefined;
  const destination = byId.get(destinationId);
  if (!destination || destination.cancelled) return destinationCardNotFound();
  if (destination.status !== ACTIVE) return destinationCardDisabled();
  return undefined;
}

const customerOf = (c: PayoutCard): EventCustomer => ({ first_name: c.first_name, last_name: c.last_name, email: c.email, phone_number: c.phone_number });

/**
 * Moves the money and writes the payout row, its list total, its audit line
 * and (when final) its event, all in one statement: one round trip, atomic by
 * itself. The statement locks the ledger accounts first and reads them at
 * their latest: a card cancelled meanwhile has a closed account and refuses;
 * a card disabled before the statement started, or a fee rule changed, fails
 * the guard. Timestamps are taken here so the event can be written with the row.
 */
export async function writePayout(
  db: Db,
  opts: { businessId: number; mode: Mode; actor: Actor },
  p: PreparedPayout,
  kind: string,
  postings: Posting[],
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
    failureReason: null,
  };
  const posting = {
    mode: opts.mode,
    kind,
    businessId: opts.businessId,
    reference: p.reference,
    actor: opts.actor,
    postings,
    onInsufficient: insufficient(p.source.account_id),
    onClosed: closed(p.source.account_id),
  };
  // The payout row's fields fill the placeholders of the same name; its business, mode, reference and actor are the posting's.
  const values = Object.assign(postingValues(posting, 3), payout, {
    // An API key's actor id is its row id; anything else names no key, and the statement refuses it.
    apiKeyId: opts.actor.type === 'api_key' ? (/^\d{1,15}$/.test(opts.actor.id ?? '') ? opts.actor.id : '0') : null,
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
  if (extra.railRequest) {
    Object.assign(values, { railProvider: extra.railRequest.provider, railBankCode: extra.railRequest.bankCode, railAmount: extra.railRequest.amount });
  }
  const statement = extra.railRequest
    ? payoutStatements.withRailRequest()
    : status === 'success'
      ? payoutStatements.withEvent()
      : payoutStatements.withoutEvent();
  p.progress.sent = true;
  const verdict = await inOneStatement(db, async (q) => {
    const v = (await runCompiled<{ verdict: PayoutStatementRow }>(q, statement, values)).rows[0].verdict;
    // A refused statement wrote nothing: roll back, so an Idempotency-Key is not marked as if money had moved.
    if (v.transaction_id === null) throw new Refused(v);
    return v;
  }).catch((err) => {
    if (err instanceof Refused) return err.verdict;
    throw err;
  });
  if (!verdict.key_usable) throw new ServiceError('forbidden', 'The API key is no longer usable; nothing was moved.');
  // A limit's refusal is final: it must not read as parties changed and be redone.
  if (verdict.limit_exceeded) throw limitExceededError(verdict.limit_exceeded, p.source.currency);
  if (!checkPosting(verdict, posting)) {
    throw (p.remembered ? undefined : await cardsChangedError(db, p.source.id, extra.destinationCardId)) ?? new PartiesChanged();
  }
  announceCreated(db, opts.businessId, opts.mode, 'payout', p.reference);
  return Object.assign({ id: Number(verdict.payout_id), transactionId: Number(verdict.transaction_id) }, payout) satisfies PayoutRow;
}
