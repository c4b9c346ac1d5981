import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { backoffSql, leaseUntilSql } from '../retry-backoff';
import type { Mode } from '../validation';

/** Every kind of job there is; each has one handler, run by lib/jobs/job-worker.ts. */
export const JOB_KINDS = ['rail_request', 'refund', 'cardholder_message'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/**
 * Tries before a job is dead, for a person to look at: on the capped backoff
 * (30 s doubling to 10 minutes), about a day of failures.
 */
const DEFAULT_MAX_ATTEMPTS = 150;

/**
 * A job whose enqueuer runs it straight after the commit (runJobNow) is due
 * for the workers only this long after: they take it when that process died
 * first, and never race it for its first try.
 */
const FIRST_TRY_GRACE_MS = 3_000;

/** Now, as run_at keeps it: cut to its milliseconds, since rounding up would leave a job due "now" not yet due to a claim in the same millisecond. */
const dueNow = sql`date_trunc('milliseconds', now())`;

export interface EnqueueJobOptions {
  kind: JobKind;
  /** The reference of the row the job acts on; one job per kind and subject. */
  subject: string;
  businessId: number | null;
  mode: Mode | null;
  payload?: Record<string, unknown>;
  /** The enqueuer makes the first try itself, straight after its commit (runJobNow); the workers wait FIRST_TRY_GRACE_MS. */
  ownFirstTry?: boolean;
  maxAttempts?: number;
}

/**
 * Enqueues a job in the caller's transaction: it commits with the money it
 * follows or not at all. A job of the same kind and subject is kept as it is.
 */
export async function enqueueJob(tx: DbOrTx, o: EnqueueJobOptions): Promise<void> {
  await tx.execute(sql`
    INSERT INTO jobs (kind, subject, business_id, mode, payload, run_at, max_attempts)
    VALUES (${o.kind}, ${o.subject}, ${o.businessId}, ${o.mode}, ${JSON.stringify(o.payload ?? {})}::jsonb,
            ${dueNow} + make_interval(secs => ${o.ownFirstTry ? FIRST_TRY_GRACE_MS / 1000 : 0}), ${o.maxAttempts ?? DEFAULT_MAX_ATTEMPTS})
    ON CONFLICT (kind, subject) DO NOTHING`);
}

/**
 * The same from inside a statement of our own, as a data-modifying CTE body:
 * `rows` selects (subject, business_id, mode), one job each, whose first try
 * the enqueuer makes (ownFirstTry) unless `o.ownFirstTry` is false.
 */
export function enqueueJobsSql(kind: JobKind, rows: SQL, o: { ownFirstTry?: boolean; maxAttempts?: number } = {}): SQL {
  const graceMs = o.ownFirstTry === false ? 0 : FIRST_TRY_GRACE_MS;
  return sql`INSERT INTO jobs (kind, subject, business_id, mode, max_attempts, run_at)
    SELECT ${sql.raw(`'${kind}'`)}, s.subject, s.business_id, s.mode, ${sql.raw(String(o.maxAttempts ?? DEFAULT_MAX_ATTEMPTS))},
           now() + interval '${sql.raw(String(graceMs))} milliseconds'
    FROM (${rows}) s(subject, business_id, mode)
    ON CONFLICT (kind, subject) DO NOTHING`;
}

export interface ClaimedJob {
  id: number;
  kind: JobKind;
  subject: string;
  /** Counting this one. */
  attempts: number;
  maxAttempts: number;
  businessId: number | null;
  mode: Mode | null;
  payload: Record<string, unknown>;
  /** The claim's own lease end, to the microsecond as PostgreSQL wrote it: the token its settlement must still find. */
  lease: string;
}

export interface ClaimJobsOptions {
  limit: number;
  /** How long the claim holds the job: past it, another worker may take it (the holder is taken for crashed). */
  leaseMs: number;
  /** Only this subject's job (a first send straight after the commit, which may take it before it is due). */
  subject?: string;
}

/**
 * The one claim: due jobs of a kind, oldest first, FOR UPDATE SKIP LOCKED so
 * workers never take the same job, each counted as an attempt and leased in
 * the same statement. A job whose holder died on its last attempt is dead.
 */
export async function claimJobs(db: DbOrTx, kind: JobKind, o: ClaimJobsOptions): Promise<ClaimedJob[]> {
  const only = o.subject === undefined ? sql`` : sql`AND subject = ${o.subject}`;
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    WITH exhausted AS (
      UPDATE jobs SET state = 'dead', locked_until = NULL, finished_at = now(), updated_at = now(),
        last_error = coalesce(last_error || '; ', '') || 'its last attempt did not finish within its lease'
      WHERE kind = ${kind} AND state = 'pending' AND attempts >= max_attempts AND (locked_until IS NULL OR locked_until <= now()) ${only}
    ), due AS (
      SELECT id FROM jobs
      WHERE kind = ${kind} AND state = 'pending' AND (locked_until IS NULL OR locked_until <= now())
        AND ${o.subject === undefined ? sql`run_at <= now()` : sql`(run_at <= now() OR attempts = 0)`}
        AND attempts < max_attempts ${only}
      ORDER BY run_at LIMIT ${o.limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE jobs j SET attempts = j.attempts + 1, locked_until = ${leaseUntilSql(o.leaseMs)}, updated_at = now()
    FROM due WHERE j.id = due.id
    RETURNING j.id, j.subject, j.attempts, j.max_attempts, j.business_id, j.mode, j.payload, j.locked_until::text AS lease`);
  return rows.map((r) => ({
    id: Number(r.id),
    kind,
    subject: String(r.subject),
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    businessId: r.business_id === null ? null : Number(r.business_id),
    mode: (r.mode as Mode | null) ?? null,
    payload: (r.payload as Record<string, unknown>) ?? {},
    lease: String(r.lease),
  }));
}

/**
 * What a handler says of its claimed job. done: nothing more to do. retry: it
 * failed; again after the capped backoff for its attempts, or dead once it has
 * had max_attempts. wait: fine, but look again after delayMs (resetAttempts:
 * a new stage begins, whose backoff starts over). dead: a person must look.
 */
export type JobOutcome =
  | { kind: 'done' }
  | { kind: 'retry'; error: string }
  | { kind: 'wait'; delayMs: number; resetAttempts?: boolean; note?: string }
  | { kind: 'dead'; error: string };

/**
 * Applies a handler's outcome, only while the claim still holds the job (its
 * lease end unchanged, still pending): a worker whose lease ran out and whose
 * job another took records nothing over the newer claim. The attempt count
 * alone would not do: it starts over after a send and when a dead job wakes,
 * so an older claim could match it again. Returns the job's state.
 */
export async function settleJob(db: DbOrTx, job: Pick<ClaimedJob, 'id' | 'lease'>, outcome: JobOutcome): Promise<'pending' | 'done' | 'dead' | null> {
  let set: SQL;
  if (outcome.kind === 'done') set = sql`state = 'done', finished_at = now()`;
  else if (outcome.kind === 'dead') set = sql`state = 'dead', finished_at = now(), last_error = ${outcome.error.slice(0, 1000)}`;
  else if (outcome.kind === 'wait') {
    set = sql`run_at = now() + make_interval(secs => ${outcome.delayMs} / 1000.0), last_error = coalesce(${outcome.note?.slice(0, 1000) ?? null}, last_error)${
      outcome.resetAttempts ? sql`, attempts = 0` : sql``
    }`;
  } else {
    set = sql`state = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE state END,
      finished_at = CASE WHEN attempts >= max_attempts THEN now() END,
      run_at = now() + ${backoffSql(sql`attempts`)}, last_error = ${outcome.error.slice(0, 1000)}`;
  }
  const { rows } = await db.execute<{ state: 'pending' | 'done' | 'dead' }>(sql`
    UPDATE jobs SET ${set}, locked_until = NULL, updated_at = now()
    WHERE id = ${job.id} AND locked_until = ${job.lease}::timestamptz AND state = 'pending'
    RETURNING state`);
  return rows[0]?.state ?? null;
}

/** Ends a subject's job from the code that settled its row, in that transaction (a person, a webhook). */
export async function closeJob(tx: DbOrTx, kind: JobKind, subject: string): Promise<void> {
  await tx.execute(sql`
    UPDATE jobs SET state = 'done', locked_until = NULL, finished_at = now(), updated_at = now()
    WHERE kind = ${kind} AND subject = ${subject} AND state <> 'done'`);
}

/**
 * Makes a subject's job due now (news about it arrived), a dead one included,
 * whose tries start over. Returns whether there was one to wake.
 */
export async function wakeJob(db: DbOrTx, kind: JobKind, subject: string): Promise<boolean> {
  const { rows } = await db.execute(sql`
    UPDATE jobs SET run_at = ${dueNow}, updated_at = now(), finished_at = NULL,
      attempts = CASE WHEN state = 'dead' THEN 0 ELSE attempts END, state = 'pending'
    WHERE kind = ${kind} AND subject = ${subject} AND state <> 'done'
    RETURNING id`);
  return rows.length > 0;
}

/** A job as a person reads it (the Chapa panel, the dead letters). */
export interface JobView {
  state: 'pending' | 'done' | 'dead';
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lastError: string | null;
}

export async function jobOf(db: DbOrTx, kind: JobKind, subject: string): Promise<JobView | null> {
  const { rows } = await db.execute<Record<string, unknown>>(
    sql`SELECT state, attempts, max_attempts, run_at, last_error FROM jobs WHERE kind = ${kind} AND subject = ${subject}`,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    state: r.state as JobView['state'],
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    runAt: new Date(r.run_at as string),
    lastError: (r.last_error as string | null) ?? null,
  };
}

/** Which of these subjects' jobs are dead: the rows a person must look at, for the lists that show them. */
export async function deadJobSubjects(db: DbOrTx, kind: JobKind, subjects: string[]): Promise<Set<string>> {
  if (subjects.length === 0) return new Set();
  const { rows } = await db.execute<{ subject: string }>(
    sql`SELECT subject FROM jobs WHERE kind = ${kind} AND state = 'dead' AND subject = ANY(${sql.param(subjects)}::text[])`,
  );
  return new Set(rows.map((r) => r.subject));
}
