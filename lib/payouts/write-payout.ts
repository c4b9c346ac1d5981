import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../db/client';
import { runCompiled } from '../db/prepared';
import { inOneStatement } from '../db/transaction';
import { feeSignature, type FeeRule } from '../fees/fee-schedule';
import { postingValues, type Posting } from '../ledger/post-transaction';
import type { Actor } from '../actor';
import type { Mode } from '../validation';
import { announceCreated } from '../webhooks/live-updates';
import { eventValues } from '../webhooks/outbox';
import { payoutEventPayload, type EventCustomer } from '../webhooks/payloads';
import type { PayoutCard } from './payout-parties';
import { payoutStatements, type PayoutStatementRow } from './payout-statement';
import { payoutVerdict, type PayoutVerdict } from './payout-verdict';
import { payoutEventInput, type PayoutRow, type PayoutType } from './payout-view';

/** A payout checked against its request and the parties read: what createPayout's attempt hands its write. */
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

class Refused extends Error {
  constructor(readonly verdict: PayoutStatementRow) {
    super('payout statement refused');
  }
}

const customerOf = (c: PayoutCard): EventCustomer => ({ first_name: c.first_name, last_name: c.last_name, email: c.email, phone_number: c.phone_number });

/**
 * Moves the money and writes the payout row, its list total, its audit line
 * and (when final) its event, all in one statement: one round trip, atomic by
 * itself. The statement locks the ledger accounts first and reads them at
 * their latest: a card cancelled meanwhile has a closed account and refuses;
 * a card disabled before the statement started, or a fee rule changed, fails
 * the guard. Timestamps are taken here so the event can be written with the row.
 * Answers the payout written, or why not (payoutVerdict).
 */
export async function writePayout(
  db: DbOrTx,
  opts: { businessId: number; mode: Mode; actor: Actor; quiet?: boolean },
  p: PreparedPayout,
  kind: string,
  postings: Posting[],
  extra: PayoutExtras,
  status: 'success' | 'pending',
): Promise<PayoutRow | Exclude<PayoutVerdict, 'written'>> {
  const { values, payout } = payoutStatementValues(opts, p, kind, postings, extra, status, new Date());
  const statement = extra.railRequest
    ? payoutStatements.withRailRequest()
    : status === 'success'
      ? payoutStatements.withEvent()
      : payoutStatements.withoutEvent();
  const run = async (q: DbOrTx) => (await runCompiled<{ verdict: PayoutStatementRow }>(q, statement, values)).rows[0].verdict;
  // In a caller's transaction (a batch, an approval) the statement runs as it is: a refused one wrote nothing, and a
  // deadlock must reach the caller's transaction, which alone can redo its work.
  const verdict = is(db, PgTransaction)
    ? await run(db)
    : await inOneStatement(db, async (q) => {
        const v = await run(q);
        // A refused statement wrote nothing: roll back, so an Idempotency-Key is not marked as if money had moved.
        if (v.transaction_id === null) throw new Refused(v);
        return v;
      }).catch((err) => {
        if (err instanceof Refused) return err.verdict;
        throw err;
      });
  const outcome = payoutVerdict(verdict, p.source.account_id, p.source.currency);
  if (outcome !== 'written') return outcome;
  if (!opts.quiet) announceCreated(db as Db, opts.businessId, opts.mode, 'payout', p.reference);
  return Object.assign({ id: Number(verdict.payout_id), transactionId: Number(verdict.transaction_id) }, payout) satisfies PayoutRow;
}

/**
 * The payout statement's values (its placeholders by name) and the payout row
 * it writes, at `now`: the payout's posting, row, audit line and (when final)
 * event. Timestamps are taken here so the event can be written with the row.
 */
export function payoutStatementValues(
  opts: { businessId: number; mode: Mode; actor: Actor },
  p: PreparedPayout,
  kind: string,
  postings: Posting[],
  extra: PayoutExtras,
  status: 'success' | 'pending',
  now: Date,
) {
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
  return { values, payout };
}
