import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { backgroundLoop, type Stop } from '../../background-loop';
import { providerEvents } from '../../providers/provider-registry';
import { textField, type ChapaBody } from './chapa-answers';
import { chapaConfig, type ChapaConfig } from './config';
import { requestTransfer, verifyTransfer, type TransferCheck } from './transfers';
import { logger } from '../../observability/logger';
import { nextAttemptSql, retryDelayMs } from '../../retry-backoff';

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
  state: 'queued' | 'sending' | 'sent';
  attempts: number;
  account_number: string;
  account_name: string;
};

/**
 * Takes due requests for this pass. The claim is committed before anything
 * is sent: a `sending` row with more than one attempt may have reached Chapa
 * (a crash or timeout after the request left), so it is verified before it
 * is sent again. Only a request whose payout is still pending is taken; one
 * whose payout was settled or reversed meanwhile is marked done here, never
 * sent. next_attempt_at moves past the longest pass (verify, send and a
 * margin: four times the call's timeout), so another instance does not take
 * the row while this one waits for Chapa.
 */
async function claim(db: Db, config: ChapaConfig, only?: string): Promise<Claimed[]> {
  const result = await db.execute<Claimed & { payout_status: string }>(sql`
    WITH due AS (
      SELECT r.id, p.status AS payout_status FROM rail_requests r JOIN payouts p ON p.id = r.payout_id
      WHERE r.state <> 'done' AND r.next_attempt_at <= now() ${only === undefined ? sql`` : sql`AND r.reference = ${only}`}
      ORDER BY r.next_attempt_at LIMIT ${BATCH} FOR UPDATE OF r SKIP LOCKED FOR SHARE OF p SKIP LOCKED
    )
    UPDATE rail_requests r SET
      state = CASE WHEN due.payout_status <> 'pending' THEN 'done' WHEN r.state = 'queued' THEN 'sending' ELSE r.state END,
      attempts = CASE WHEN due.payout_status <> 'pending' THEN r.attempts ELSE r.attempts + 1 END,
      last_error = CASE WHEN due.payout_status <> 'pending' THEN 'the payout was ' || due.payout_status || ' before this request went further' ELSE r.last_error END,
      next_attempt_at = ${nextAttemptSql(sql`r.attempts`, config.leaseMs)},
      updated_at = now()
    FROM due, payouts p
    WHERE r.id = due.id AND p.id = r.payout_id
    RETURNING r.id, r.payout_id, r.reference, r.bank_code, r.amount, r.currency, r.state, r.attempts, p.account_number, p.account_name, due.payout_status`);
  return result.rows
    .filter((r) => r.payout_status === 'pending')
    .map((r) => ({
      id: Number(r.id),
      payout_id: Number(r.payout_id),
      reference: r.reference,
      bank_code: r.bank_code,
      amount: Number(r.amount),
      currency: r.currency,
      state: r.state,
      attempts: Number(r.attempts),
      account_number: r.account_number,
      account_name: r.account_name,
    }));
}

async function note(db: Db, id: number, lastError: string): Promise<void> {
  await db.execute(sql`UPDATE rail_requests SET last_error = ${lastError.slice(0, 500)}, updated_at = now() WHERE id = ${id}`);
}

/** Chapa has the transfer: from now on only verify (or its webhook) settles it; the first check comes after one backoff step. */
async function markSent(db: Db, id: number, providerStatus: string | null, providerReference: string | null): Promise<void> {
  await db.execute(sql`
    UPDATE rail_requests SET state = 'sent', attempts = 0, sent_at = coalesce(sent_at, now()), last_error = NULL,
      provider_status = coalesce(${providerStatus}, provider_status), provider_reference = coalesce(${providerReference}, provider_reference), next_attempt_at = now() + make_interval(secs => ${retryDelayMs(1) / 1000}),
      updated_at = now()
    WHERE id = ${id} AND state <> 'done'`);
}

async function finish(db: Db, r: Pick<Claimed, 'id' | 'payout_id'>, outcome: 'success' | 'failed', providerStatus: string, failureReason?: string) {
  // The row is done in the same transaction as the settlement: a crash between them would leave a reversed payout to be sent again.
  const markDone = (tx: DbOrTx) =>
    tx.execute(sql`
      UPDATE rail_requests SET state = 'done', provider_status = ${providerStatus}, verified_at = now(), last_error = NULL, updated_at = now()
      WHERE id = ${r.id}`);
  await providerEvents().transferSettled(db, { payoutId: r.payout_id, outcome, actor: SYSTEM, failureReason, inSameTransaction: markDone });
  await markDone(db);
}

/** Applies what verify said; true when the payout is now final. */
async function applyCheck(db: Db, r: Claimed, check: Extract<TransferCheck, { kind: 'found' }>): Promise<boolean> {
  await db.execute(sql`
    UPDATE rail_requests SET provider_status = ${check.status}, provider_reference = coalesce(provider_reference, ${check.chapaReference}),
      verified_at = now(), updated_at = now()
    WHERE id = ${r.id}`);
  if (check.state === 'pending') return false;
  // Money is settled only on an answer that matches what was asked: a mismatch stays pending for a person to look at.
  const amountAgrees = check.amount === null || check.amount === r.amount;
  const currencyAgrees = check.currency === null || check.currency === r.currency;
  if (!amountAgrees || !currencyAgrees) {
    await note(db, r.id, `verify says ${check.status} for ${check.amount ?? '?'} ${check.currency ?? '?'}, we asked for ${r.amount} ${r.currency}`);
    return false;
  }
  if (check.state === 'success') await finish(db, r, 'success', check.status);
  else await finish(db, r, 'failed', check.status, `Chapa reported the transfer ${check.status}.`);
  return true;
}

export type RailRequestResult = 'sent' | 'settled' | 'refused' | 'retry';

async function send(db: Db, config: ChapaConfig, r: Claimed, resend = false): Promise<RailRequestResult> {
  const outcome = await requestTransfer(config, {
    reference: r.reference,
    bankCode: r.bank_code,
    accountNumber: r.account_number,
    accountName: r.account_name,
    amount: r.amount,
    currency: r.currency,
  });
  if (outcome.kind === 'unavailable') {
    await note(db, r.id, `transfer not sent: ${outcome.reason}`);
    return 'retry';
  }
  if (outcome.kind === 'refused') {
    // A resend refused (a used reference, say) is evidence the earlier one arrived: Chapa may still pay it, so only verify
    // may end it. The row stays sent and verify keeps asking; after REVIEW_AFTER_MS (rail-request-view.ts) the payout's Chapa panel asks a person.
    if (resend) {
      await markSent(db, r.id, null, null);
      await note(db, r.id, `resend refused (${outcome.message}) while verify does not know the transfer yet: waiting for verify`);
      return 'sent';
    }
    await finish(db, r, 'failed', 'refused', `Chapa refused the transfer: ${outcome.message}`);
    return 'refused';
  }
  // Chapa answers the transfer's own reference as `data`, a string (an object with `reference` in some versions).
  const data = outcome.body.data;
  const chapaReference = typeof data === 'string' ? data : data && typeof data === 'object' ? textField(data as ChapaBody, 'reference') : null;
  await markSent(db, r.id, 'pending', chapaReference?.slice(0, 100) ?? null);
  return 'sent';
}

/** One claimed request, one step further: send it, or find out whether an earlier send arrived, or how it ended. */
async function advance(db: Db, config: ChapaConfig, r: Claimed): Promise<RailRequestResult> {
  // A first attempt was never sent before; any later one may have been (the claim is committed before the call).
  if (r.state === 'sending' && r.attempts <= 1) return send(db, config, r);
  const check = await verifyTransfer(config, r.reference);
  if (check.kind === 'unavailable' || check.kind === 'unreadable') {
    await note(db, r.id, `verify: ${check.reason}`);
    return 'retry';
  }
  if (check.kind === 'not_found') {
    if (r.state === 'sending') return send(db, config, r, true);
    await note(db, r.id, 'verify does not know a transfer Chapa accepted');
    return 'retry';
  }
  if (r.state === 'sending') await markSent(db, r.id, check.status, check.chapaReference);
  return (await applyCheck(db, r, check)) ? 'settled' : 'sent';
}

async function advanceLogged(db: Db, config: ChapaConfig, r: Claimed): Promise<RailRequestResult> {
  try {
    return await advance(db, config, r);
  } catch (err) {
    logger.error({ err }, `rail request ${r.reference}`);
    return 'retry';
  }
}

/** The payout create path's first send, straight after the debit commits; undefined when the worker has the row. */
export async function sendRailRequestNow(db: Db, reference: string): Promise<RailRequestResult | undefined> {
  const config = chapaConfig();
  if (!config) return undefined;
  let r: Claimed | undefined;
  try {
    [r] = await claim(db, config, reference);
  } catch (err) {
    // The row stays queued for the worker: the payout is pending, never reversed for our own database's error.
    logger.error({ err }, `rail request ${reference}: claim`);
    return 'retry';
  }
  return r ? advanceLogged(db, config, r) : undefined;
}

/** A webhook about a transfer only asks verify how it ended (now, not at the next backoff step). */
export async function checkRailRequestNow(db: Db, reference: string): Promise<RailRequestResult | undefined> {
  const config = chapaConfig();
  if (!config) return undefined;
  await db.execute(sql`UPDATE rail_requests SET next_attempt_at = now() WHERE reference = ${reference} AND state = 'sent'`);
  const [r] = await claim(db, config, reference);
  return r ? advanceLogged(db, config, r) : undefined;
}

async function advanceDueRailRequests(db: Db): Promise<number> {
  const config = chapaConfig();
  if (!config) return 0;
  const claimed = await claim(db, config);
  for (const r of claimed) await advanceLogged(db, config, r);
  return claimed.length;
}

/** The outbox worker; live rails only run with CHAPA_SECRET_KEY, so without it this loop does nothing. */
export const startRailRequests = (db: Db): Stop =>
  chapaConfig() ? backgroundLoop('chapa rail requests', POLL_MS, async () => (await advanceDueRailRequests(db)) === BATCH) : async () => {};
