import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { backgroundLoop, type Stop } from '../../background-loop';
import { settlePayout } from '../../payouts/settle-payout';
import { textField, type ChapaBody } from './chapa-answers';
import { chapaConfig, type ChapaConfig } from './config';
import { requestTransfer, verifyTransfer, type TransferCheck } from './transfers';

const SYSTEM = { type: 'system', id: 'chapa' } as const;
const BATCH = 10;
const POLL_MS = 500;

/**
 * Backoff between tries of one request (sending it, or asking verify how it
 * ended): the first retry within a minute, doubling to at most ten minutes.
 * CHAPA_RETRY_BASE_MS and CHAPA_RETRY_MAX_MS shorten it for tests.
 */
export function retryDelayMs(tries: number, env: Record<string, string | undefined> = process.env): number {
  const read = (raw: string | undefined, fallback: number) => {
    const n = Number(raw);
    return raw && Number.isFinite(n) && n > 0 ? n : fallback;
  };
  const base = read(env.CHAPA_RETRY_BASE_MS, 30_000);
  const max = read(env.CHAPA_RETRY_MAX_MS, 600_000);
  return Math.min(max, base * 2 ** Math.max(0, Math.min(tries, 20) - 1));
}

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
 * is sent again. next_attempt_at moves past the call's timeout, so another
 * instance does not take the row while this one waits for Chapa.
 */
async function claim(db: Db, config: ChapaConfig, only?: string): Promise<Claimed[]> {
  const base = retryDelayMs(1);
  const max = retryDelayMs(Number.MAX_SAFE_INTEGER);
  const result = await db.execute<Claimed>(sql`
    WITH due AS (
      SELECT id FROM rail_requests
      WHERE state <> 'done' AND next_attempt_at <= now() ${only === undefined ? sql`` : sql`AND reference = ${only}`}
      ORDER BY next_attempt_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
    )
    UPDATE rail_requests r SET
      state = CASE WHEN r.state = 'queued' THEN 'sending' ELSE r.state END,
      attempts = r.attempts + 1,
      next_attempt_at = now() + make_interval(secs => greatest(${config.timeoutMs * 2}, least(${max}, ${base} * power(2, least(r.attempts, 20)))) / 1000.0),
      updated_at = now()
    FROM due, payouts p
    WHERE r.id = due.id AND p.id = r.payout_id
    RETURNING r.id, r.payout_id, r.reference, r.bank_code, r.amount, r.currency, r.state, r.attempts, p.account_number, p.account_name`);
  return result.rows.map((r) => ({ ...r, id: Number(r.id), payout_id: Number(r.payout_id), amount: Number(r.amount), attempts: Number(r.attempts) }));
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
  await settlePayout(db, { payoutId: r.payout_id, outcome, actor: SYSTEM, failureReason });
  await db.execute(sql`
    UPDATE rail_requests SET state = 'done', provider_status = ${providerStatus}, verified_at = now(), last_error = NULL, updated_at = now()
    WHERE id = ${r.id}`);
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
    // A resend refused as a used reference means the earlier one did arrive after all: only verify may say how it ended.
    if (resend) {
      const again = await verifyTransfer(config, r.reference);
      if (again.kind === 'found') {
        await markSent(db, r.id, again.status, again.chapaReference);
        return (await applyCheck(db, r, again)) ? 'settled' : 'sent';
      }
      if (again.kind !== 'not_found') {
        await note(db, r.id, `transfer refused on resend (${outcome.message}); verify: ${again.reason}`);
        return 'retry';
      }
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
    console.error(`rail request ${r.reference}`, err);
    return 'retry';
  }
}

/** The payout create path's first send, straight after the debit commits; undefined when the worker has the row. */
export async function sendRailRequestNow(db: Db, reference: string): Promise<RailRequestResult | undefined> {
  const config = chapaConfig();
  if (!config) return undefined;
  const [r] = await claim(db, config, reference);
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
