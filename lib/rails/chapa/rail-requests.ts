import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import type { Stop } from '../../background-loop';
import { closeJob, type JobOutcome, wakeJob } from '../../jobs/job-queue';
import { type JobHandler, type JobStep, runJobNow, startJobWorker } from '../../jobs/job-worker';
import { providerEvents } from '../../providers/provider-registry';
import { textField, type ChapaBody } from './chapa-answers';
import { chapaConfig, type ChapaConfig } from './config';
import { requestTransfer, verifyTransfer, type TransferCheck } from './transfers';
import { saysReferenceUsed } from './refunds';
import { logger } from '../../observability/logger';
import { retryDelayMs } from '../../retry-backoff';

const SYSTEM = { type: 'system', id: 'chapa' } as const;
const BATCH = 10;
const POLL_MS = 500;

type Claimed = {
  id: number;
  payout_id: number;
  reference: string;
  bank_code: string;
  amount: number;
  currency: string;
  state: 'sending' | 'sent';
  /** Never sent before this pass: it was still queued when the job was claimed. */
  first: boolean;
  account_number: string;
  account_name: string;
};

/**
 * Takes the request of a claimed `rail_request` job (lib/jobs/) one step on.
 * A queued request becomes `sending` in this statement, committed before
 * anything is sent: a `sending` request seen again may have reached Chapa (a
 * crash or timeout after the request left), so it is verified before it is
 * sent again. Only a request whose payout is still pending is taken; one
 * whose payout was settled or reversed meanwhile is marked done here, never
 * sent, and one whose payout is being settled right now is left for later.
 */
async function take(db: Db, reference: string): Promise<Claimed | 'done' | 'busy'> {
  const result = await db.execute<Record<string, unknown>>(sql`
    WITH due AS (
      SELECT r.id, r.state AS was, p.status AS payout_status FROM rail_requests r JOIN payouts p ON p.id = r.payout_id
      WHERE r.reference = ${reference} AND r.state <> 'done'
      FOR UPDATE OF r SKIP LOCKED FOR SHARE OF p SKIP LOCKED
    )
    UPDATE rail_requests r SET
      state = CASE WHEN due.payout_status <> 'pending' THEN 'done' WHEN r.state = 'queued' THEN 'sending' ELSE r.state END,
      last_error = CASE WHEN due.payout_status <> 'pending' THEN 'the payout was ' || due.payout_status || ' before this request went further' ELSE r.last_error END,
      updated_at = now()
    FROM due, payouts p
    WHERE r.id = due.id AND p.id = r.payout_id
    RETURNING r.id, r.payout_id, r.reference, r.bank_code, r.amount, r.currency, r.state, due.was, p.account_number, p.account_name, due.payout_status`);
  const r = result.rows[0];
  if (!r) {
    const left = await db.execute(sql`SELECT 1 FROM rail_requests WHERE reference = ${reference} AND state <> 'done'`);
    return left.rows.length > 0 ? 'busy' : 'done';
  }
  if (r.payout_status !== 'pending') return 'done';
  return {
    id: Number(r.id),
    payout_id: Number(r.payout_id),
    reference: String(r.reference),
    bank_code: String(r.bank_code),
    amount: Number(r.amount),
    currency: String(r.currency),
    state: r.state as Claimed['state'],
    first: r.was === 'queued',
    account_number: String(r.account_number),
    account_name: String(r.account_name),
  };
}

async function note(db: Db, id: number, lastError: string): Promise<void> {
  await db.execute(sql`UPDATE rail_requests SET last_error = ${lastError.slice(0, 500)}, updated_at = now() WHERE id = ${id}`);
}

/** Chapa has the transfer: from now on only verify (or its webhook) settles it; the first check comes after one backoff step. */
async function markSent(db: Db, id: number, providerStatus: string | null, providerReference: string | null): Promise<void> {
  await db.execute(sql`
    UPDATE rail_requests SET state = 'sent', sent_at = coalesce(sent_at, now()), last_error = NULL,
      provider_status = coalesce(${providerStatus}, provider_status), provider_reference = coalesce(${providerReference}, provider_reference),
      updated_at = now()
    WHERE id = ${id} AND state <> 'done'`);
}

/** The job's next look after a send Chapa took: verify's backoff starts over from its first step. */
const sentOutcome = (note?: string): JobOutcome => ({ kind: 'wait', delayMs: retryDelayMs(1), resetAttempts: true, note });
const DONE: JobOutcome = { kind: 'done' };

async function finish(
  db: Db,
  r: Pick<Claimed, 'id' | 'payout_id' | 'reference'>,
  outcome: 'success' | 'failed',
  providerStatus: string,
  failureReason?: string,
) {
  // The row and its job are done in the same transaction as the settlement: a crash between them would leave a reversed payout to be sent again.
  const markDone = async (tx: DbOrTx) => {
    await tx.execute(sql`
      UPDATE rail_requests SET state = 'done', provider_status = ${providerStatus}, verified_at = now(), last_error = NULL, updated_at = now()
      WHERE id = ${r.id}`);
    await closeJob(tx, 'rail_request', r.reference);
  };
  await providerEvents().transferSettled(db, { payoutId: r.payout_id, outcome, actor: SYSTEM, failureReason, inSameTransaction: markDone });
  await markDone(db);
}

/** Applies what verify said; the outcome for the job: done once the payout is final, else verify again on the backoff. */
async function applyCheck(db: Db, r: Claimed, check: Extract<TransferCheck, { kind: 'found' }>): Promise<JobStep<RailRequestResult>> {
  await db.execute(sql`
    UPDATE rail_requests SET provider_status = ${check.status}, provider_reference = coalesce(provider_reference, ${check.chapaReference}),
      verified_at = now(), updated_at = now()
    WHERE id = ${r.id}`);
  if (check.state === 'pending') return { outcome: { kind: 'retry', error: `verify says ${check.status}` }, result: 'sent' };
  // Money is settled only on an answer that matches what was asked: a mismatch stays pending for a person to look at.
  const amountAgrees = check.amount === null || check.amount === r.amount;
  const currencyAgrees = check.currency === null || check.currency === r.currency;
  if (!amountAgrees || !currencyAgrees) {
    const error = `verify says ${check.status} for ${check.amount ?? '?'} ${check.currency ?? '?'}, we asked for ${r.amount} ${r.currency}`;
    await note(db, r.id, error);
    return { outcome: { kind: 'retry', error }, result: 'sent' };
  }
  if (check.state === 'success') await finish(db, r, 'success', check.status);
  else await finish(db, r, 'failed', check.status, `Chapa reported the transfer ${check.status}.`);
  return { outcome: DONE, result: 'settled' };
}

export type RailRequestResult = 'sent' | 'settled' | 'refused' | 'retry';

async function send(db: Db, config: ChapaConfig, r: Claimed, resend = false): Promise<JobStep<RailRequestResult>> {
  const outcome = await requestTransfer(config, {
    reference: r.reference,
    bankCode: r.bank_code,
    accountNumber: r.account_number,
    accountName: r.account_name,
    amount: r.amount,
    currency: r.currency,
  });
  if (outcome.kind === 'unavailable') {
    const error = `transfer not sent: ${outcome.reason}`;
    await note(db, r.id, error);
    return { outcome: { kind: 'retry', error }, result: 'retry' };
  }
  if (outcome.kind === 'refused') {
    // A resend refused (a used reference, say) is evidence the earlier one arrived: Chapa may still pay it, so only verify
    // may end it. The row stays sent and verify keeps asking; after REVIEW_AFTER_MS (rail-request-view.ts) the payout's Chapa panel asks a person.
    // A first send told its reference is taken is the same evidence (another instance's send got there first): never failed for it.
    if (resend || saysReferenceUsed(outcome.message)) {
      await markSent(db, r.id, null, null);
      const why = `resend refused (${outcome.message}) while verify does not know the transfer yet: waiting for verify`;
      await note(db, r.id, why);
      return { outcome: sentOutcome(why), result: 'sent' };
    }
    await finish(db, r, 'failed', 'refused', `Chapa refused the transfer: ${outcome.message}`);
    return { outcome: DONE, result: 'refused' };
  }
  // Chapa answers the transfer's own reference as `data`, a string (an object with `reference` in some versions).
  const data = outcome.body.data;
  const chapaReference = typeof data === 'string' ? data : data && typeof data === 'object' ? textField(data as ChapaBody, 'reference') : null;
  await markSent(db, r.id, 'pending', chapaReference?.slice(0, 100) ?? null);
  return { outcome: sentOutcome(), result: 'sent' };
}

/** One claimed request, one step further: send it, or find out whether an earlier send arrived, or how it ended. */
async function advance(db: Db, config: ChapaConfig, r: Claimed): Promise<JobStep<RailRequestResult>> {
  // A request still queued was never sent; any other may have been (the step to sending is committed before the call).
  if (r.state === 'sending' && r.first) return send(db, config, r);
  const check = await verifyTransfer(config, r.reference);
  if (check.kind === 'unavailable' || check.kind === 'unreadable') {
    const error = `verify: ${check.reason}`;
    await note(db, r.id, error);
    return { outcome: { kind: 'retry', error }, result: 'retry' };
  }
  if (check.kind === 'not_found') {
    if (r.state === 'sending') return send(db, config, r, true);
    const error = 'verify does not know a transfer Chapa accepted';
    await note(db, r.id, error);
    return { outcome: { kind: 'retry', error }, result: 'retry' };
  }
  if (r.state === 'sending') {
    await markSent(db, r.id, check.status, check.chapaReference);
    const step = await applyCheck(db, r, check);
    return step.outcome.kind === 'done' ? step : { outcome: sentOutcome(), result: step.result };
  }
  return applyCheck(db, r, check);
}

/** The `rail_request` job: live rails only run with CHAPA_SECRET_KEY, so without it there is none. */
function railRequestJobs(config: ChapaConfig): JobHandler<RailRequestResult> {
  return {
    kind: 'rail_request',
    leaseMs: config.leaseMs,
    failed: 'retry',
    run: async (db, job) => {
      const r = await take(db, job.subject);
      if (r === 'done') return { outcome: DONE, result: 'settled' };
      // Its payout is being settled this moment: the settlement closes the request, or the next look finds out.
      if (r === 'busy') return { outcome: { kind: 'retry', error: 'its payout was being settled' }, result: 'retry' };
      return advance(db, config, r);
    },
  };
}

/** The payout create path's first send, straight after the debit commits; undefined when a worker has the job. */
export async function sendRailRequestNow(db: Db, reference: string): Promise<RailRequestResult | undefined> {
  const config = chapaConfig();
  if (!config) return undefined;
  try {
    return await runJobNow(db, railRequestJobs(config), reference);
  } catch (err) {
    // The job stays due for the worker: the payout is pending, never reversed for our own database's error.
    logger.error({ err }, `rail request ${reference}: claim`);
    return 'retry';
  }
}

/** A webhook about a transfer only asks verify how it ended (now, not at the next backoff step; a dead job wakes). */
export async function checkRailRequestNow(db: Db, reference: string): Promise<RailRequestResult | undefined> {
  const config = chapaConfig();
  if (!config) return undefined;
  const sent = await db.execute(sql`SELECT 1 FROM rail_requests WHERE reference = ${reference} AND state = 'sent'`);
  if (sent.rows.length === 0 || !(await wakeJob(db, 'rail_request', reference))) return undefined;
  return runJobNow(db, railRequestJobs(config), reference);
}

/** The worker of `rail_request` jobs; without CHAPA_SECRET_KEY this loop does nothing. */
export const startRailRequests = (db: Db): Stop => {
  const config = chapaConfig();
  return config ? startJobWorker(db, railRequestJobs(config), { batch: BATCH, pollMs: POLL_MS }) : async () => {};
};
