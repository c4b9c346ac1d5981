import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { CommittedPart, withCommitHook } from '../db/commit-hooks';
import { idempotencyKeys } from '../db/schema';
import { ServiceError } from '../errors';

export interface IdempotencyOptions {
  apiKeyId: number;
  key: string;
  /** A hash of the method, path and body (lib/api/request-fingerprint.ts): the same key with another request is refused. */
  fingerprint: string;
  /** What a key stored before the canonical fingerprint holds for this request (accepted too, until such keys expire). */
  legacyFingerprint?: string;
  /**
   * Rebuilds the answer of a run that committed but died before its answer was stored, from
   * what its committed transaction returned; undefined when it cannot. Without it, such a key
   * answers 409 until it expires.
   */
  replayCommitted?: (committed: unknown) => Promise<Response | undefined>;
  /**
   * For a request made of several transactions that each record their part (CommittedPart): given what the
   * dead run committed, the run that finishes it (answering the parts committed, doing the rest), or
   * undefined when what was committed cannot be resumed. Takes precedence over replayCommitted.
   */
  resumeCommitted?: (committed: unknown) => (() => Promise<Response>) | undefined;
}

/** The key's stored answer, as every retry gets it. */
const replayedAnswer = (body: string | null, status: number) =>
  new Response(body, { status, headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' } });

/** What a transaction returned, kept with its commit mark when small and plain enough to store. */
function storableResult(result: unknown): unknown {
  try {
    const text = JSON.stringify(result, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
    return text !== undefined && text.length <= 16 * 1024 ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

const TTL = sql`now() + interval '24 hours'`;
/** A claim this old with nothing committed belongs to a request that died: no request runs this long. */
const ABANDONED_AFTER = sql`interval '60 seconds'`;

/**
 * The first answer to a key is kept for 24 hours and replayed to every retry.
 *
 * Each run holds a claim (the row's created_at). Every transaction the run
 * commits marks the row "committed" inside that same transaction, and only
 * while the claim is still its own. So a request that died before committing
 * anything can be taken over and run again after a minute, while one that
 * committed is never run twice, and a run whose claim was taken over cannot
 * commit at all. A run that committed but died before storing its answer is
 * answered from what its transaction returned, when the caller can rebuild it.
 */
export async function withIdempotency(db: Db, opts: IdempotencyOptions, run: () => Promise<Response>): Promise<Response> {
  if (opts.key.length === 0 || opts.key.length > 255) {
    throw new ServiceError('validation_error', { 'Idempotency-Key': 'The Idempotency-Key header must be 1 to 255 characters.' });
  }
  const where = and(eq(idempotencyKeys.apiKeyId, opts.apiKeyId), eq(idempotencyKeys.key, opts.key));
  await db.delete(idempotencyKeys).where(and(where, sql`${idempotencyKeys.expiresAt} < now()`));
  let [claim] = await db
    .insert(idempotencyKeys)
    .values({ apiKeyId: opts.apiKeyId, key: opts.key, requestHash: opts.fingerprint, state: 'in_progress', expiresAt: TTL })
    .onConflictDoNothing()
    .returning({ token: idempotencyKeys.createdAt });

  if (!claim) {
    const [stored] = await db.select().from(idempotencyKeys).where(where);
    if (!stored) throw new ServiceError('request_in_progress', 'A request with this Idempotency-Key is being processed; retry shortly.');
    if (stored.requestHash !== opts.fingerprint && stored.requestHash !== opts.legacyFingerprint) {
      throw new ServiceError('idempotency_key_reused', 'This Idempotency-Key was used with another request; use a new key.');
    }
    if (stored.state === 'done') return replayedAnswer(stored.responseBody, stored.responseStatus!);
    if (stored.state === 'committed') {
      // Only a run that died is answered for: one still running (a bank payout waiting on its rail) may yet undo what it committed.
      const lastSign = stored.lastCommittedAt && stored.lastCommittedAt > stored.createdAt ? stored.lastCommittedAt : stored.createdAt;
      const age = await db.execute<{ abandoned: boolean }>(sql`SELECT ${lastSign.toISOString()}::timestamptz < now() - ${ABANDONED_AFTER} AS abandoned`);
      if (!age.rows[0]?.abandoned)
        throw new ServiceError('request_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly.');
      if (opts.resumeCommitted?.(stored.committedResult)) return resumeRun(db, opts, stored.createdAt);
      const replayed = stored.committedResult != null ? await opts.replayCommitted?.(stored.committedResult).catch(() => undefined) : undefined;
      if (replayed) {
        const body = await replayed.text();
        // The answer the first run would have stored, stored now: every later retry replays it as it is.
        await db
          .update(idempotencyKeys)
          .set({ state: 'done', responseStatus: replayed.status, responseBody: body })
          .where(and(where, eq(idempotencyKeys.state, 'committed'), eq(idempotencyKeys.createdAt, stored.createdAt)));
        return replayedAnswer(body, replayed.status);
      }
      throw new ServiceError(
        'request_in_progress',
        'The first request with this Idempotency-Key took effect but its answer was not stored; look the result up (e.g. GET /card/payouts) instead of retrying.',
      );
    }
    [claim] = await db
      .update(idempotencyKeys)
      // A new claim gets its own 24 hours: one taken over near the end must not expire between committing and storing its answer.
      .set({ createdAt: sql`now()`, expiresAt: TTL })
      .where(
        and(
          where,
          eq(idempotencyKeys.state, 'in_progress'),
          eq(idempotencyKeys.createdAt, stored.createdAt),
          sql`${idempotencyKeys.createdAt} < now() - ${ABANDONED_AFTER}`,
        ),
      )
      .returning({ token: idempotencyKeys.createdAt });
    if (!claim) throw new ServiceError('request_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly.');
  }

  return runClaimed(db, opts, claim.token, run);
}

/**
 * Takes over a committed key whose run died, in one conditional update (of two retries racing, exactly one
 * matches the dead run's claim), and runs what finishes it under the new claim. The dead run, were it alive
 * after all, can commit nothing more: its marks name the old claim. Its committed parts are read in that
 * same update, so a part it committed just before is among them.
 */
async function resumeRun(db: Db, opts: IdempotencyOptions, deadClaim: Date): Promise<Response> {
  const where = and(eq(idempotencyKeys.apiKeyId, opts.apiKeyId), eq(idempotencyKeys.key, opts.key));
  const [taken] = await db
    .update(idempotencyKeys)
    .set({ createdAt: sql`now()`, expiresAt: TTL })
    .where(and(where, eq(idempotencyKeys.state, 'committed'), eq(idempotencyKeys.createdAt, deadClaim)))
    .returning({ token: idempotencyKeys.createdAt, committed: idempotencyKeys.committedResult });
  if (!taken) {
    // The run lived after all and stored its answer just now, or another retry took it over: the stored answer, if there is one.
    const [stored] = await db.select().from(idempotencyKeys).where(where);
    if (stored?.state === 'done') return replayedAnswer(stored.responseBody, stored.responseStatus!);
    throw new ServiceError('request_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly.');
  }
  // From the update's own read: the resume answers exactly the parts committed up to the takeover.
  const run = opts.resumeCommitted?.(taken.committed);
  if (!run) throw new Error(`idempotency key ${opts.key}: its committed parts stopped being resumable`);
  const res = await runClaimed(db, opts, taken.token, run);
  res.headers.set('idempotent-replayed', 'true');
  return res;
}

/** Runs under the claim `token`: each transaction it commits marks the key, and its answer is stored as the key's one answer. */
async function runClaimed(db: Db, opts: IdempotencyOptions, token: Date, run: () => Promise<Response>): Promise<Response> {
  const where = and(eq(idempotencyKeys.apiKeyId, opts.apiKeyId), eq(idempotencyKeys.key, opts.key));
  const ours = and(where, eq(idempotencyKeys.createdAt, token));
  const markCommitted = async (tx: Tx, result: unknown) => {
    const committedResult =
      result instanceof CommittedPart
        ? sql`coalesce(${idempotencyKeys.committedResult}, '{}'::jsonb) || ${JSON.stringify(result.part)}::jsonb`
        : // The first transaction's result: the one that made what the answer describes (a later one may only undo it).
          sql`coalesce(${idempotencyKeys.committedResult}, ${JSON.stringify(storableResult(result))}::jsonb)`;
    const marked = await tx
      .update(idempotencyKeys)
      .set({ state: 'committed', committedResult, lastCommittedAt: sql`now()` })
      .where(and(ours, sql`${idempotencyKeys.state} IN ('in_progress', 'committed', 'done')`))
      .returning({ key: idempotencyKeys.key });
    if (marked.length === 0) throw new ServiceError('request_in_progress', 'Another request took over this Idempotency-Key; nothing was changed.');
  };
  let res: Response;
  try {
    res = await withCommitHook(markCommitted, run);
  } catch (err) {
    // Unexpected failures roll their transaction back; a claim with nothing committed is released for a retry.
    await db.delete(idempotencyKeys).where(and(ours, eq(idempotencyKeys.state, 'in_progress')));
    throw err;
  }
  const body = await res.text();
  // A retry that replayed this run's answer stored it first; that answer stays the key's one answer.
  const stored = await db
    .update(idempotencyKeys)
    .set({ state: 'done', responseStatus: res.status, responseBody: body })
    .where(and(ours, sql`${idempotencyKeys.state} <> 'done'`))
    .returning({ key: idempotencyKeys.key });
  if (stored.length === 0 && (await db.select({ token: idempotencyKeys.createdAt }).from(idempotencyKeys).where(ours)).length === 0) {
    // Taken for dead, this run was taken over by a retry that finishes it: the key's answer is that retry's, not this one.
    throw new ServiceError('request_in_progress', 'A retry with this Idempotency-Key took this request over; send it again with the same key for its answer.');
  }
  return new Response(body, { status: res.status, headers: res.headers });
}
