import { and, eq, sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import { backgroundLoop, type Stop } from '../background-loop';
import type { Db } from '../db/client';
import { payments } from '../db/schema';
import type { CheckoutPort, PaymentProvider, ProviderSettings } from '../providers/provider-port';
import { providerFor } from '../providers/provider-registry';
import { groupedUnitsText } from '../money-text';
import { completePayment } from './complete-payment';
import type { Payment } from './payment-view';
import { logger } from '../observability/logger';

const CHAPA: Actor = { type: 'system', id: 'chapa' };

/** What one verification came to. */
type VerifyResult = 'credited' | 'failed' | 'pending' | 'unavailable' | 'finished' | 'not_found';

/** Live mode's provider, its settings and its verify; undefined while none is configured. */
interface LiveVerify {
  settings: ProviderSettings;
  checkout: CheckoutPort;
}

function liveVerify(provider: PaymentProvider | undefined = providerFor('live')): LiveVerify | undefined {
  const settings = provider?.settings();
  return settings && provider?.checkout ? { settings, checkout: provider.checkout } : undefined;
}

/** Public triggers (callback, checkout return) schedule at most one verify per payment this often. */
const PUBLIC_VERIFY_GAP_MS = 10_000;

export interface LiveTiming {
  /** First scheduled verify after the payment starts, then doubling up to `maxIntervalMs`. */
  intervalMs: number;
  maxIntervalMs: number;
  /** A payment Chapa still calls pending (or does not know) this long after it started fails as timed out. */
  timeoutMs: number;
}

const envMs = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

/** CHAPA_VERIFY_INTERVAL_MS (30 s), CHAPA_VERIFY_MAX_INTERVAL_MS (5 min), CHAPA_PAYMENT_TIMEOUT_MS (1 h). */
export function liveTiming(): LiveTiming {
  return {
    intervalMs: envMs('CHAPA_VERIFY_INTERVAL_MS', 30_000),
    maxIntervalMs: envMs('CHAPA_VERIFY_MAX_INTERVAL_MS', 300_000),
    timeoutMs: envMs('CHAPA_PAYMENT_TIMEOUT_MS', 3_600_000),
  };
}

const nextVerifyDelay = (attempts: number, t: LiveTiming = liveTiming()) => Math.min(t.maxIntervalMs, t.intervalMs * 2 ** Math.min(attempts, 20));

async function note(db: Db, id: number, state: string, text: string, reschedule: boolean, attempts: number): Promise<void> {
  const next = new Date(Date.now() + nextVerifyDelay(attempts + 1));
  // Only a pending payment takes a note: a late one must not overwrite the verdict of a payment settled meanwhile.
  await db
    .update(payments)
    .set({
      verifyState: state,
      verifyNote: text.slice(0, 500),
      verifyAttempts: attempts + 1,
      // A slot a public trigger took while this verify ran is kept, so that trigger is not lost.
      ...(reschedule
        ? { nextVerifyAt: sql`CASE WHEN ${payments.verifyRequestedAt} > now() THEN LEAST(${payments.verifyRequestedAt}, ${next}) ELSE ${next} END` }
        : {}),
    })
    .where(and(eq(payments.id, id), eq(payments.status, 'pending')));
}

/**
 * Asks Chapa's verify about one live payment and settles it only on what verify
 * says: success with the same amount (what the customer pays: amount plus fee)
 * and currency credits the card through completePayment, whose row lock makes
 * concurrent webhooks, callbacks and scheduled checks credit once. A webhook or
 * callback never settles anything by itself; it only calls this.
 */
async function verifyLivePayment(db: Db, linkReference: string, live: LiveVerify | undefined = liveVerify()): Promise<VerifyResult> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.linkReference, linkReference), eq(payments.mode, 'live')));
  if (!payment) return 'not_found';
  // A credited payment has nothing left to learn; a failed one is still asked, in case Chapa took the money after all.
  if (payment.status === 'success') return 'finished';
  if (!live) return 'unavailable';
  const answer = await live.checkout.verifyPayment(payment.linkReference);
  const timedOut = Date.now() - new Date(payment.createdAt).getTime() > liveTiming().timeoutMs;

  if (answer.kind === 'unavailable') {
    // Chapa being unreachable is never a reason to fail a payment the customer may have paid.
    if (payment.status === 'pending')
      await note(db, payment.id, 'unavailable', `Verify could not reach Chapa: ${answer.reason}.`, true, payment.verifyAttempts);
    return payment.status === 'pending' ? 'unavailable' : 'finished';
  }
  if (answer.kind === 'refused') {
    if (payment.status !== 'pending') return 'finished';
    // Only "no such transaction" lets the clock run out; a refused key (401, 403) says nothing about the payment.
    const unknownToChapa = answer.httpStatus === 404 || /not found/i.test(answer.message);
    if (!unknownToChapa) {
      await note(
        db,
        payment.id,
        'refused',
        `Chapa refused the verify (${answer.httpStatus}: ${answer.message}); check CHAPA_SECRET_KEY.`,
        true,
        payment.verifyAttempts,
      );
      return 'unavailable';
    }
    if (timedOut) return settle(db, payment, 'failed', 'timed_out', `Chapa did not know the payment (${answer.message}) and no answer came in time.`);
    await note(db, payment.id, 'not_found', `Chapa's verify: ${answer.message}.`, true, payment.verifyAttempts);
    return 'pending';
  }

  const { verified } = answer;
  if (verified.state === 'unreadable' || verified.txRef !== payment.linkReference) {
    const why = verified.state === 'unreadable' ? verified.reason : `verify answered tx_ref ${verified.txRef}`;
    if (payment.status === 'pending') await note(db, payment.id, 'unreadable', `Chapa's verify could not be read: ${why}.`, true, payment.verifyAttempts);
    return payment.status === 'pending' ? 'pending' : 'finished';
  }
  // A live key credits only on a live verify; a test key (a business trying live mode on Chapa's test side) only on a test one.
  const keyMode = live.settings.keyMode;
  if ((verified.mode ?? '').toLowerCase() !== keyMode) {
    if (payment.status !== 'pending') return 'finished';
    const why = `Chapa's verify answered mode ${JSON.stringify(verified.mode)} to a ${keyMode} key; nothing was credited.`;
    if (timedOut) return settle(db, payment, 'failed', 'mode_mismatch', why, verified.providerReference);
    await note(db, payment.id, 'mode_mismatch', why, true, payment.verifyAttempts);
    return 'pending';
  }

  const expected = payment.amount + payment.serviceFee;
  if (payment.status !== 'pending') {
    // A mismatch already says what was paid; anything else failed here that Chapa calls paid needs a person.
    if (payment.status !== 'success' && verified.state === 'success') await flagPaidAfterFailure(db, payment.id, verified.raw);
    return 'finished';
  }

  if (verified.state === 'success') {
    if (verified.amount !== expected || verified.currency !== payment.currency) {
      const said = `${groupedUnitsText(verified.amount)} ${verified.currency}`;
      const wanted = `${groupedUnitsText(expected)} ${payment.currency}`;
      return settle(
        db,
        payment,
        'failed',
        'mismatch',
        `Chapa's verify reported ${said} paid where ${wanted} was due; nothing was credited.`,
        verified.providerReference,
      );
    }
    return settle(
      db,
      payment,
      'success',
      'verified',
      `Chapa's verify confirmed ${groupedUnitsText(expected)} ${payment.currency} paid.`,
      verified.providerReference,
    );
  }
  if (verified.state === 'failed')
    return settle(db, payment, 'failed', 'verified', `Chapa's verify reported the payment ${verified.raw.split(' ')[0]}.`, verified.providerReference);
  if (timedOut)
    return settle(
      db,
      payment,
      'failed',
      'timed_out',
      'Chapa still reported the payment pending when its time ran out; nothing was credited.',
      verified.providerReference,
    );
  await note(db, payment.id, 'pending', "Chapa's verify reports the payment still pending.", true, payment.verifyAttempts);
  return 'pending';
}

async function settle(
  db: Db,
  payment: Payment,
  outcome: 'success' | 'failed',
  state: string,
  text: string,
  chapaReference?: string | null,
): Promise<VerifyResult> {
  const { changed } = await completePayment(db, {
    linkReference: payment.linkReference,
    mode: 'live',
    outcome,
    actor: CHAPA,
    processorReference: chapaReference ?? payment.providerReference ?? undefined,
    ...(outcome === 'failed' && state !== 'verified' ? { failureReason: text } : {}),
    verify: { state, note: text },
  });
  if (!changed) {
    // A timeout or not-found failure won the row lock while this verify saw the money taken: no later verify will come, so flag it now.
    if (outcome === 'success') await flagPaidAfterFailure(db, payment.id, text);
    return 'finished';
  }
  return outcome === 'success' ? 'credited' : 'failed';
}

/**
 * Paid after we gave up: nothing is credited automatically; the business refunds
 * or credits by hand. A mismatch already says what was paid, so it is kept.
 */
async function flagPaidAfterFailure(db: Db, id: number, said: string): Promise<void> {
  await db
    .update(payments)
    .set({
      verifyState: 'paid_after_failure',
      verifyNote: `Chapa reports this payment paid (${said}) after it had failed here; refund it or credit the card by hand.`.slice(0, 500),
    })
    .where(
      and(
        eq(payments.id, id),
        eq(payments.status, 'failed'),
        sql`${payments.verifyState} IS DISTINCT FROM 'mismatch' AND ${payments.verifyState} IS DISTINCT FROM 'paid_after_failure'`,
      ),
    );
}

/** Live payments whose scheduled verify is due; returns how many this pass looked at. */
async function verifyDuePayments(db: Db, batch = 20): Promise<number> {
  const live = liveVerify();
  if (!live) return 0;
  // Claimed by pushing next_verify_at a lease ahead, so several app instances never verify the same payment at once.
  const lease = liveTiming().intervalMs + live.settings.timeoutMs;
  const { rows: due } = await db.execute<{ link_reference: string }>(sql`
    UPDATE payments SET next_verify_at = now() + make_interval(secs => ${lease / 1000})
    WHERE id IN (
      SELECT id FROM payments
      WHERE status = 'pending' AND mode = 'live' AND next_verify_at IS NOT NULL AND next_verify_at <= now()
      ORDER BY next_verify_at
      LIMIT ${batch}
      FOR UPDATE SKIP LOCKED)
    RETURNING link_reference`);
  for (const p of due) {
    try {
      await verifyLivePayment(db, p.link_reference, live);
    } catch (err) {
      logger.error({ err }, `live verify of ${p.link_reference}`);
    }
  }
  return due.length;
}

/** The background loop started with the server (lib/background.ts); idle without CHAPA_SECRET_KEY. */
export function startLiveVerification(db: Db, intervalMs = 500): Stop {
  if (liveVerify()?.settings.keyMode === 'test')
    logger.warn("CHAPA_SECRET_KEY is a test key (CHASECK_TEST-...): live mode talks to Chapa's test environment, and its payments move no real money.");
  return backgroundLoop('live payment verification', intervalMs, async () => {
    // Always waits the interval: every payment looked at was rescheduled or finished, so nothing is due again at once.
    await verifyDuePayments(db);
    return false;
  });
}

interface Flight {
  running: Promise<void>;
  /** The one run queued behind `running`; every trigger arriving meanwhile waits for it, and no more. */
  following: Promise<void> | null;
}

const inFlight = new Map<string, Flight>();

function runOnce(db: Db, linkReference: string, flight: Flight): Promise<void> {
  return verifyLivePayment(db, linkReference)
    .then(() => undefined)
    .catch((err) => logger.error({ err }, `live verify of ${linkReference}`))
    .finally(() => {
      if (!flight.following) inFlight.delete(linkReference);
    });
}

/**
 * What a signed webhook (or an API call with the business's key) calls: one
 * verify per reference at a time in this process. A trigger arriving while one
 * runs gets exactly one more run after it (the newer message may follow a newer
 * state) and waits for that run only, so a burst costs at most two calls to
 * Chapa and no signal is lost. Only these may ask about a payment that already failed.
 */
export function requestLiveVerify(db: Db, linkReference: string): Promise<void> {
  const flight = inFlight.get(linkReference);
  if (flight) {
    flight.following ??= flight.running.then(() => {
      flight.following = null;
      flight.running = runOnce(db, linkReference, flight);
      return flight.running;
    });
    return flight.following;
  }
  const fresh: Flight = { running: Promise.resolve(), following: null };
  inFlight.set(linkReference, fresh);
  fresh.running = runOnce(db, linkReference, fresh);
  return fresh.running;
}

/**
 * What the public callback and the customer's return from Chapa call: anyone
 * who knows a reference can send them, so they never wait for Chapa. They only
 * bring a pending payment's next scheduled verify forward, to now or to the
 * next free slot PUBLIC_VERIFY_GAP_MS after the last one a trigger took, and the
 * background loop (lib/background.ts) does the verify.
 */
export async function requestPublicVerify(db: Db, linkReference: string, gapMs = PUBLIC_VERIFY_GAP_MS): Promise<void> {
  const slot = sql`GREATEST(now(), COALESCE(${payments.verifyRequestedAt} + make_interval(secs => ${gapMs / 1000}), now()))`;
  await db
    .update(payments)
    .set({ nextVerifyAt: slot, verifyRequestedAt: slot })
    .where(
      and(
        eq(payments.linkReference, linkReference),
        eq(payments.mode, 'live'),
        eq(payments.status, 'pending'),
        sql`${payments.nextVerifyAt} IS NOT NULL AND ${payments.nextVerifyAt} > ${slot}`,
      ),
    );
}
