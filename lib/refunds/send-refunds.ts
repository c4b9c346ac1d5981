import { sql } from 'drizzle-orm';
import type { Stop } from '../background-loop';
import type { Db } from '../db/client';
import type { RefundPort } from '../providers/provider-port';
import { providerFor } from '../providers/provider-registry';
import { settleRefund } from './settle-refund';
import type { JobOutcome } from '../jobs/job-queue';
import { type JobHandler, type JobStep, runJobNow, startJobWorker } from '../jobs/job-worker';
import { logger } from '../observability/logger';

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
  /** What the payer gets back: the refund's amount and the fee given back with it. */
  amount: number;
  reason: string | null;
  /** Never sent before this pass: it was still queued when its job was claimed. */
  first: boolean;
}

/**
 * The refund of a claimed `refund` job (lib/jobs/), marked `sending` before
 * anything is sent (that commits first): a refund seen `sending` again may
 * have reached Chapa, so it is resent with the same reference, which Chapa
 * refuses to refund twice. Undefined when it has ended or is held for a person.
 */
async function take(db: Db, reference: string): Promise<Claimed | undefined> {
  const res = await db.execute<Record<string, unknown>>(sql`
    WITH due AS (
      SELECT r.id, r.request_state AS was FROM refunds r
      WHERE r.reference = ${reference} AND r.request_state IN ('queued', 'sending') AND r.status = 'pending'
      FOR UPDATE
    )
    UPDATE refunds r SET request_state = 'sending', updated_at = now()
    FROM due, payments p
    WHERE r.id = due.id AND p.id = r.payment_id
    RETURNING r.id, r.reference, p.link_reference AS tx_ref, r.amount + r.service_fee AS amount, r.reason, due.was`);
  const r = res.rows[0];
  if (!r) return undefined;
  return {
    id: Number(r.id),
    reference: String(r.reference),
    tx_ref: String(r.tx_ref),
    amount: Number(r.amount),
    reason: (r.reason as string | null) ?? null,
    first: r.was === 'queued',
  };
}

const note = (db: Db, id: number, text: string, state?: 'sent') =>
  db.execute(
    sql`UPDATE refunds SET last_error = ${text.slice(0, 500)}, request_state = coalesce(${state ?? null}, request_state), updated_at = now() WHERE id = ${id}`,
  );

export type RefundSendResult = 'succeeded' | 'failed' | 'retry' | 'held';

const DONE: JobOutcome = { kind: 'done' };

/**
 * One send. Accepted: the refund succeeded. Refused on the first try: the
 * debit goes back (settleRefund). Refused on a later try because the
 * reference is taken: the earlier send arrived, so it succeeded. Any other
 * refusal of a resend may hide an earlier send that arrived: the refund stays
 * pending and sent no more, its job dead, for a person to check with Chapa
 * (never reversed automatically, which could repay the payer and the card both).
 */
async function send(db: Db, live: LiveRefunds, r: Claimed): Promise<JobStep<RefundSendResult>> {
  const outcome = await live.port.requestRefund({ txRef: r.tx_ref, reference: r.reference, amount: r.amount, reason: r.reason });
  if (outcome.kind === 'unavailable') {
    const error = `refund not sent: ${outcome.reason}`;
    await note(db, r.id, error);
    return { outcome: { kind: 'retry', error }, result: 'retry' };
  }
  if (outcome.kind === 'ok') {
    await settleRefund(db, { refundId: r.id, outcome: 'succeeded', actor: SYSTEM, providerReference: outcome.providerReference?.slice(0, 100) ?? null });
    return { outcome: DONE, result: 'succeeded' };
  }
  // A used reference means a send of ours arrived, a first send's too (another instance's got there first): never failed for it.
  if (outcome.referenceUsed) {
    await settleRefund(db, { refundId: r.id, outcome: 'succeeded', actor: SYSTEM });
    return { outcome: DONE, result: 'succeeded' };
  }
  if (r.first) {
    await settleRefund(db, { refundId: r.id, outcome: 'failed', actor: SYSTEM, failureReason: `Chapa refused the refund: ${outcome.message}` });
    return { outcome: DONE, result: 'failed' };
  }
  const error = `resend refused (${outcome.message}); an earlier send may have arrived: check this refund with Chapa`;
  await note(db, r.id, error, 'sent');
  return { outcome: { kind: 'dead', error }, result: 'held' };
}

/** The `refund` job: a refund the provider's staff settle by hand (settle-refund.ts) closes it. */
function refundJobs(live: LiveRefunds): JobHandler<RefundSendResult> {
  return {
    kind: 'refund',
    leaseMs: live.timeoutMs * 2,
    failed: 'retry',
    run: async (db, job) => {
      const r = await take(db, job.subject);
      return r ? send(db, live, r) : { outcome: DONE, result: 'succeeded' };
    },
  };
}

/** The refund's first send, straight after its debit commits; undefined when another process has the job. */
export async function sendRefundNow(db: Db, reference: string): Promise<RefundSendResult | undefined> {
  const live = liveRefunds();
  if (!live) return undefined;
  try {
    return await runJobNow(db, refundJobs(live), reference);
  } catch (err) {
    logger.error({ err }, `refund ${reference}: claim`);
    return 'retry';
  }
}

/** The worker of `refund` jobs; without CHAPA_SECRET_KEY there are no live refunds and it does nothing. */
export const startRefundRequests = (db: Db): Stop => {
  const live = liveRefunds();
  return live ? startJobWorker(db, refundJobs(live), { batch: BATCH, pollMs: POLL_MS }) : async () => {};
};
