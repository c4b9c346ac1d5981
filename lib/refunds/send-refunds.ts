import { sql } from 'drizzle-orm';
import { backgroundLoop, type Stop } from '../background-loop';
import type { Db } from '../db/client';
import type { RefundPort } from '../providers/provider-port';
import { providerFor } from '../providers/provider-registry';
import { settleRefund } from './settle-refund';
import { logger } from '../observability/logger';
import { nextAttemptSql } from '../retry-backoff';

const SYSTEM = { type: 'system', id: 'chapa' } as const;

/** Live mode's refunds and the provider's call timeout; undefined while none is configured. */
interface LiveRefunds {
  port: RefundPort;
  timeoutMs: number;
}

function liveRefunds(): LiveRefunds | undefined {
  const provider = providerFor('live');
  const settings = provider?.settings();
  return settings && provider?.refunds ? { port: provider.refunds, timeoutMs: settings.timeoutMs } : undefined;
}
const BATCH = 10;
const POLL_MS = 500;

interface Claimed {
  id: number;
  reference: string;
  tx_ref: string;
  amount: number;
  reason: string | null;
  attempts: number;
}

/**
 * Takes due live refund requests. The claim (attempt count, and a lease past
 * the call's timeout) commits before anything is sent, so a row claimed
 * before may have reached Chapa: it is resent with the same reference, which
 * Chapa refuses to refund twice.
 */
async function claim(db: Db, live: LiveRefunds, only?: string): Promise<Claimed[]> {
  const res = await db.execute<Claimed & Record<string, unknown>>(sql`
    WITH due AS (
      SELECT r.id FROM refunds r
      WHERE r.request_state IN ('queued', 'sending') AND r.status = 'pending' AND r.next_attempt_at <= now()
        ${only === undefined ? sql`` : sql`AND r.reference = ${only}`}
      ORDER BY r.next_attempt_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
    )
    UPDATE refunds r SET request_state = 'sending', attempts = r.attempts + 1, updated_at = now(),
      next_attempt_at = ${nextAttemptSql(sql`r.attempts`, live.timeoutMs * 2)}
    FROM due, payments p
    WHERE r.id = due.id AND p.id = r.payment_id
    RETURNING r.id, r.reference, p.link_reference AS tx_ref, r.amount, r.reason, r.attempts`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id), amount: Number(r.amount), attempts: Number(r.attempts) }));
}

const note = (db: Db, id: number, text: string, state?: 'sent') =>
  db.execute(
    sql`UPDATE refunds SET last_error = ${text.slice(0, 500)}, request_state = coalesce(${state ?? null}, request_state), updated_at = now() WHERE id = ${id}`,
  );

export type RefundSendResult = 'succeeded' | 'failed' | 'retry' | 'held';

/**
 * One send. Accepted: the refund succeeded. Refused on the first try: the
 * debit goes back (settleRefund). Refused on a later try because the
 * reference is taken: the earlier send arrived, so it succeeded. Any other
 * refusal of a resend may hide an earlier send that arrived: the refund stays
 * pending and sent no more, for a person to check with Chapa (never reversed
 * automatically, which could repay the payer and the card both).
 */
async function send(db: Db, live: LiveRefunds, r: Claimed): Promise<RefundSendResult> {
  const outcome = await live.port.requestRefund({ txRef: r.tx_ref, reference: r.reference, amount: r.amount, reason: r.reason });
  if (outcome.kind === 'unavailable') {
    await note(db, r.id, `refund not sent: ${outcome.reason}`);
    return 'retry';
  }
  if (outcome.kind === 'ok') {
    await settleRefund(db, { refundId: r.id, outcome: 'succeeded', actor: SYSTEM, providerReference: outcome.providerReference?.slice(0, 100) ?? null });
    return 'succeeded';
  }
  if (r.attempts <= 1) {
    await settleRefund(db, { refundId: r.id, outcome: 'failed', actor: SYSTEM, failureReason: `Chapa refused the refund: ${outcome.message}` });
    return 'failed';
  }
  if (outcome.referenceUsed) {
    await settleRefund(db, { refundId: r.id, outcome: 'succeeded', actor: SYSTEM });
    return 'succeeded';
  }
  await note(db, r.id, `resend refused (${outcome.message}); an earlier send may have arrived: check this refund with Chapa`, 'sent');
  return 'held';
}

async function sendLogged(db: Db, live: LiveRefunds, r: Claimed): Promise<RefundSendResult> {
  try {
    return await send(db, live, r);
  } catch (err) {
    logger.error({ err }, `refund ${r.reference}`);
    return 'retry';
  }
}

/** The refund's first send, straight after its debit commits; undefined when another process has the row. */
export async function sendRefundNow(db: Db, reference: string): Promise<RefundSendResult | undefined> {
  const live = liveRefunds();
  if (!live) return undefined;
  let claimed: Claimed[];
  try {
    claimed = await claim(db, live, reference);
  } catch (err) {
    logger.error({ err }, `refund ${reference}: claim`);
    return 'retry';
  }
  return claimed[0] ? sendLogged(db, live, claimed[0]) : undefined;
}

async function sendDueRefunds(db: Db): Promise<number> {
  const live = liveRefunds();
  if (!live) return 0;
  const claimed = await claim(db, live);
  for (const r of claimed) await sendLogged(db, live, r);
  return claimed.length;
}

/** The live refund outbox worker; without CHAPA_SECRET_KEY there are no live refunds and it does nothing. */
export const startRefundRequests = (db: Db): Stop =>
  liveRefunds() ? backgroundLoop('chapa refund requests', POLL_MS, async () => (await sendDueRefunds(db)) === BATCH) : async () => {};
