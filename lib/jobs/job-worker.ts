import { backgroundLoop, type Stop } from '../background-loop';
import type { Db } from '../db/client';
import { logger } from '../observability/logger';
import { type ClaimedJob, claimJobs, type JobKind, type JobOutcome, settleJob } from './job-queue';

/** What a handler made of one claimed job: the outcome for the queue, and its own answer for a caller waiting on it. */
export interface JobStep<R> {
  outcome: JobOutcome;
  result: R;
}

export interface JobHandler<R> {
  kind: JobKind;
  /** The longest one run may take (its calls' timeouts, with room): the claim's lease. */
  leaseMs: number;
  run: (db: Db, job: ClaimedJob) => Promise<JobStep<R>>;
  /** The answer when run throws (the job is then retried on the backoff). */
  failed: R;
}

async function runClaimed<R>(db: Db, handler: JobHandler<R>, job: ClaimedJob): Promise<R> {
  let step: JobStep<R>;
  try {
    step = await handler.run(db, job);
  } catch (err) {
    logger.error({ err, job: job.id, kind: job.kind }, `job ${job.kind} ${job.subject}`);
    step = { outcome: { kind: 'retry', error: err instanceof Error ? err.message : String(err) }, result: handler.failed };
  }
  const state = await settleJob(db, job, step.outcome);
  if (state === 'dead') logger.error({ job: job.id, kind: job.kind, subject: job.subject }, `job ${job.kind} ${job.subject} is dead: a person must look at it`);
  return step.result;
}

/**
 * Runs one subject's job at once, if it is due and nobody holds it (a first
 * send straight after the commit): undefined when there was none to take.
 */
export async function runJobNow<R>(db: Db, handler: JobHandler<R>, subject: string): Promise<R | undefined> {
  const [job] = await claimJobs(db, handler.kind, { limit: 1, leaseMs: handler.leaseMs, subject });
  return job ? runClaimed(db, handler, job) : undefined;
}

/**
 * One pass: up to `batch` due jobs, each claimed just before it runs. The lease is sized for one run: ten jobs
 * claimed at once under one lease would let another worker take the last of them while this one still works
 * through the first, and a transfer could be sent twice. The number run.
 */
async function runDueJobs<R>(db: Db, handler: JobHandler<R>, batch: number): Promise<number> {
  let ran = 0;
  while (ran < batch) {
    const [job] = await claimJobs(db, handler.kind, { limit: 1, leaseMs: handler.leaseMs });
    if (!job) break;
    await runClaimed(db, handler, job);
    ran++;
  }
  return ran;
}

/** The worker of one kind: a pass every pollMs, and at once again while passes come back full. */
export function startJobWorker<R>(db: Db, handler: JobHandler<R>, o: { batch: number; pollMs: number }): Stop {
  return backgroundLoop(`${handler.kind} jobs`, o.pollMs, async () => (await runDueJobs(db, handler, o.batch)) === o.batch);
}
