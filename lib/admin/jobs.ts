import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { JOB_KINDS } from '../jobs/job-queue';
import { pageCount, type PageRequest } from '../pagination';
import { modeSchema, parseInput } from '../validation';

const JOB_STATES = ['pending', 'done', 'dead'] as const;

export const listJobsSchema = z.object({
  state: z.enum(JOB_STATES, { error: 'state must be pending, done or dead.' }).default('dead'),
  kind: z.enum(JOB_KINDS, { error: `kind must be one of ${JOB_KINDS.join(', ')}.` }).optional(),
  business_id: z
    .string()
    .regex(/^\d{1,9}$/, { error: 'business_id must be a whole number.' })
    .transform(Number)
    .optional(),
  mode: modeSchema.optional(),
});

export interface ListJobsOptions {
  /** The query's filters as they came (state, kind, business_id, mode), parsed here. */
  filters: Record<string, string | undefined>;
  page: PageRequest;
}

const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

function jobRecord(r: Record<string, unknown>) {
  return {
    id: Number(r.id),
    kind: String(r.kind),
    subject: String(r.subject),
    business_id: r.business_id === null ? null : Number(r.business_id),
    mode: (r.mode as string | null) ?? null,
    state: String(r.state),
    attempts: Number(r.attempts),
    max_attempts: Number(r.max_attempts),
    last_error: (r.last_error as string | null) ?? null,
    run_at: iso(r.run_at),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    finished_at: iso(r.finished_at),
  };
}

const COLUMNS = sql`id, kind, subject, business_id, mode, state, attempts, max_attempts, last_error, run_at, created_at, updated_at, finished_at`;

/**
 * The provider's list of the job queue, every business's: by default the dead
 * jobs (the ones a person must look at), last given up first.
 */
export async function listJobs(db: Db, o: ListJobsOptions) {
  const f = parseInput(listJobsSchema, o.filters);
  const where = sql.join(
    [
      sql`state = ${f.state}`,
      f.kind ? sql`kind = ${f.kind}` : undefined,
      f.business_id !== undefined ? sql`business_id = ${f.business_id}` : undefined,
      f.mode ? sql`mode = ${f.mode}` : undefined,
    ].filter((c) => c !== undefined),
    sql` AND `,
  );
  const [{ rows }, { rows: count }] = await Promise.all([
    db.execute<Record<string, unknown>>(
      sql`SELECT ${COLUMNS} FROM jobs WHERE ${where} ORDER BY updated_at DESC, id DESC LIMIT ${o.page.limit} OFFSET ${o.page.offset}`,
    ),
    db.execute<{ n: number }>(sql`SELECT count(*)::bigint AS n FROM jobs WHERE ${where}`),
  ]);
  const total = Number(count[0].n);
  return { items: rows.map(jobRecord), total, page: o.page.page, limit: o.page.limit, pages: pageCount(total, o.page.limit) };
}

export const retryJobSchema = z
  .object({
    max_attempts: z
      .int({ error: 'max_attempts must be a whole number.' })
      .min(1, { error: 'max_attempts must be at least 1.' })
      .max(10_000, { error: 'max_attempts must be at most 10000.' })
      .optional(),
  })
  .strict();

export interface RetryJobOptions {
  id: string;
  actor: Actor;
  input: unknown;
}

/**
 * A person gives a dead job another round: pending and due now, its tries
 * counted from zero (up to max_attempts, raised when asked), audited. Only a
 * dead job: a pending one has a worker's claim or its own next try, so a
 * second retry, or one of a job that came back to life, changes nothing.
 */
export async function retryJob(db: Db, o: RetryJobOptions) {
  const { max_attempts: maxAttempts } = parseInput(retryJobSchema, o.input ?? {});
  if (!/^\d{1,15}$/.test(o.id.trim())) throw new ServiceError('not_found', 'No job with this id.');
  const id = Number(o.id.trim());
  return inTransaction(db, async (tx) => {
    const { rows: before } = await tx.execute<Record<string, unknown>>(sql`SELECT ${COLUMNS} FROM jobs WHERE id = ${id} FOR UPDATE`);
    const job = before[0];
    if (!job) throw new ServiceError('not_found', 'No job with this id.');
    if (job.state !== 'dead') throw new ServiceError('already_decided', `This job is ${job.state}, not dead: only a dead job can be retried.`);
    const { rows } = await tx.execute<Record<string, unknown>>(sql`
      UPDATE jobs SET state = 'pending', attempts = 0, max_attempts = coalesce(${maxAttempts ?? null}::int, max_attempts),
        run_at = date_trunc('milliseconds', now()), locked_until = NULL, finished_at = NULL, updated_at = now()
      WHERE id = ${id} AND state = 'dead'
      RETURNING ${COLUMNS}`);
    await recordAudit(tx, {
      businessId: job.business_id === null ? null : Number(job.business_id),
      mode: (job.mode as string | null) ?? null,
      actor: o.actor,
      action: 'job.retried',
      target: `${job.kind}:${job.subject}`,
      details: { job_id: id, attempts: Number(job.attempts), max_attempts: Number(rows[0].max_attempts), last_error: job.last_error ?? null },
    });
    return jobRecord(rows[0]);
  });
}
