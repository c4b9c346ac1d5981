import { spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createBusiness } from '../lib/admin/businesses';
import { createDb, type Db, type Tx } from '../lib/db/client';
import { claimJobs, enqueueJob, jobOf, settleJob } from '../lib/jobs/job-queue';
import { type JobHandler, startJobWorker } from '../lib/jobs/job-worker';
import { clearingAccountId } from '../lib/ledger/accounts';
import { postTransaction } from '../lib/ledger/post-transaction';
import { retryDelayMs } from '../lib/retry-backoff';
import { waitFor } from './helpers';
import { createScratchDatabase } from './test-server';

/**
 * The one job queue (lib/jobs/) against a real PostgreSQL: one claim that two
 * workers never share, a lease that hands a killed worker's job to another,
 * the capped backoff, the dead letter, and the enqueue that commits with the
 * money or not at all.
 */

let url: string;
let db: Db;
let other: Db;
const ends: (() => Promise<void>)[] = [];
let run = 0;
const ACTOR = { type: 'system', id: 'jobs-test' } as const;
const subject = (name: string) => `${name}-${Date.now()}-${run++}`;

beforeAll(async () => {
  url = await createScratchDatabase(inject('databaseUrl'), 'jobs_queue');
  for (const target of ['db', 'other'] as const) {
    const handle = createDb(url, 6);
    if (target === 'db') db = handle.db;
    else other = handle.db;
    ends.push(() => handle.pool.end());
  }
}, 120_000);

afterAll(async () => {
  for (const end of ends) await end();
});

const stateOf = async (s: string) => (await jobOf(db, 'refund', s))!;

describe('jobs', () => {
  it('two workers claiming at once never take the same job, and between them take every one', async () => {
    const prefix = subject('race');
    const total = 300;
    await db.execute(sql`
      INSERT INTO jobs (kind, subject, max_attempts, run_at) SELECT 'refund', ${prefix} || '-' || g, 5, now() - interval '1 second' FROM generate_series(1, ${total}) g`);
    const taken: string[] = [];
    // Four claimers on each of two pools (two instances), each claiming 7 at a time until nothing of this race is left.
    const claimer = async (handle: Db) => {
      for (;;) {
        const claimed = (await claimJobs(handle, 'refund', { limit: 7, leaseMs: 60_000 })).filter((j) => j.subject.startsWith(`${prefix}-`));
        if (claimed.length === 0) return;
        taken.push(...claimed.map((j) => j.subject));
      }
    };
    await Promise.all([db, db, db, db, other, other, other, other].map(claimer));
    expect(taken).toHaveLength(total);
    expect(new Set(taken).size).toBe(total);
    const { rows } = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM jobs WHERE subject LIKE ${`${prefix}-%`} AND attempts = 1 AND locked_until > now()`,
    );
    expect(rows[0].n).toBe(total);
  });

  it('a job a killed worker held is claimed again once its lease lapses, and not before', async () => {
    const s = subject('crash');
    await enqueueJob(db, { kind: 'refund', subject: s, businessId: null, mode: null, maxAttempts: 5 });
    // Another process claims it with a 3 s lease, says so, and hangs as a worker stuck on a call would, until SIGKILL.
    const code = `
      const { createDb } = await import('./lib/db/client.ts');
      const { claimJobs } = await import('./lib/jobs/job-queue.ts');
      const { db } = createDb(process.env.DATABASE_URL, 1);
      const claimed = await claimJobs(db, 'refund', { limit: 1, leaseMs: 3000, subject: ${JSON.stringify(s)} });
      console.log('claimed ' + claimed.length);
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_, signal) => resolve(signal)));
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    await waitFor(async () => (out.includes('claimed 1') ? true : undefined), 30_000);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    expect(await claimJobs(db, 'refund', { limit: 1, leaseMs: 60_000, subject: s })).toEqual([]);
    const reclaimed = await waitFor(async () => (await claimJobs(db, 'refund', { limit: 1, leaseMs: 60_000, subject: s }))[0], 15_000);
    expect(reclaimed.attempts).toBe(2);
    expect(await settleJob(db, reclaimed, { kind: 'done' })).toBe('done');
  });

  it('the wait after a failed try doubles from the base and is capped, however many tries the job has had', async () => {
    const s = subject('backoff');
    await enqueueJob(db, { kind: 'refund', subject: s, businessId: null, mode: null, maxAttempts: 1_000 });
    const waitAfter = async (attempts: number) => {
      await db.execute(sql`UPDATE jobs SET attempts = ${attempts - 1}, run_at = now() - interval '1 second' WHERE kind = 'refund' AND subject = ${s}`);
      const [job] = await claimJobs(db, 'refund', { limit: 1, leaseMs: 60_000, subject: s });
      expect(job.attempts).toBe(attempts);
      expect(await settleJob(db, job, { kind: 'retry', error: 'Chapa unavailable' })).toBe('pending');
      const { rows } = await db.execute<{ wait_ms: number }>(
        sql`SELECT extract(epoch FROM run_at - updated_at)::float8 * 1000 AS wait_ms FROM jobs WHERE kind = 'refund' AND subject = ${s}`,
      );
      return rows[0].wait_ms;
    };
    expect(await waitAfter(1)).toBeCloseTo(retryDelayMs(1), -1);
    expect(await waitAfter(2)).toBeCloseTo(2 * retryDelayMs(1), -1);
    const cap = retryDelayMs(Number.MAX_SAFE_INTEGER);
    // Uncapped, thirty doublings of 30 s would be decades.
    expect(await waitAfter(30)).toBeCloseTo(cap, -1);
    expect(await waitAfter(900)).toBeCloseTo(cap, -1);
    expect((await stateOf(s)).lastError).toBe('Chapa unavailable');
  });

  it('a job past its max attempts is dead, no longer claimed, and shows why', async () => {
    const s = subject('dead');
    await enqueueJob(db, { kind: 'refund', subject: s, businessId: null, mode: null, maxAttempts: 2 });
    for (const attempt of [1, 2]) {
      await db.execute(sql`UPDATE jobs SET run_at = now() - interval '1 second' WHERE kind = 'refund' AND subject = ${s}`);
      const [job] = await claimJobs(db, 'refund', { limit: 1, leaseMs: 60_000, subject: s });
      expect(job.attempts).toBe(attempt);
      await settleJob(db, job, { kind: 'retry', error: `refund not sent: try ${attempt}` });
    }
    expect(await stateOf(s)).toMatchObject({ state: 'dead', attempts: 2, lastError: 'refund not sent: try 2' });
    await db.execute(sql`UPDATE jobs SET run_at = now() - interval '1 hour' WHERE kind = 'refund' AND subject = ${s}`);
    expect(await claimJobs(db, 'refund', { limit: 1, leaseMs: 60_000, subject: s })).toEqual([]);
    const { rows } = await db.execute<{ subject: string }>(sql`SELECT subject FROM jobs WHERE state = 'dead' AND kind = 'refund'`);
    expect(rows.map((r) => r.subject)).toContain(s);
  });

  it('a worker killed on its last attempt leaves a dead job once the lease lapses, not one retried forever', async () => {
    const s = subject('dead-lease');
    await enqueueJob(db, { kind: 'refund', subject: s, businessId: null, mode: null, maxAttempts: 1 });
    const [job] = await claimJobs(db, 'refund', { limit: 1, leaseMs: 200, subject: s });
    expect(job.attempts).toBe(1);
    // Never settled: the holder is gone.
    await waitFor(async () => {
      await claimJobs(db, 'refund', { limit: 1, leaseMs: 60_000, subject: s });
      return (await stateOf(s)).state === 'dead' ? true : undefined;
    });
    expect((await stateOf(s)).lastError).toContain('did not finish within its lease');
  });

  it('a job is enqueued with the money it follows: rolled back together, committed together', async () => {
    const biz = await createBusiness(db, { name: 'Jobs atomic' });
    const deposits = await clearingAccountId(db, 'deposits', 'live', 'ETB');
    const refunds = await clearingAccountId(db, 'refunds:checkout', 'live', 'ETB');
    const s = subject('atomic');
    // A movement to the refund clearing account and the job that sends the refund, as refundPayment writes them.
    const refund = async (tx: Tx) => {
      await postTransaction(tx, {
        mode: 'live',
        kind: 'test_funding',
        businessId: biz.id,
        reference: s,
        actor: ACTOR,
        postings: [
          { accountId: deposits, amount: -1_000 },
          { accountId: refunds, amount: 1_000 },
        ],
      });
      await enqueueJob(tx, { kind: 'refund', subject: s, businessId: biz.id, mode: 'live' });
    };
    const moved = sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${s}`;
    await expect(
      db.transaction(async (tx) => {
        await refund(tx);
        throw new Error('a later step of the transaction failed');
      }),
    ).rejects.toThrow('a later step');
    expect(await jobOf(db, 'refund', s)).toBeNull();
    expect((await db.execute<{ n: number }>(moved)).rows[0].n).toBe(0);

    await db.transaction(refund);
    expect(await jobOf(db, 'refund', s)).toMatchObject({ state: 'pending', attempts: 0, maxAttempts: 150 });
    expect((await db.execute<{ n: number }>(moved)).rows[0].n).toBe(1);
  });

  it('a job its enqueuer tries straight after the commit is left to it: the workers take it only after a grace', async () => {
    const s = subject('own');
    await enqueueJob(db, { kind: 'refund', subject: s, businessId: null, mode: null, ownFirstTry: true });
    const byWorker = await claimJobs(other, 'refund', { limit: 1_000, leaseMs: 60_000 });
    expect(byWorker.map((j) => j.subject)).not.toContain(s);
    const [mine] = await claimJobs(db, 'refund', { limit: 1, leaseMs: 60_000, subject: s });
    expect(mine.attempts).toBe(1);
    // Its first try failed: the next is the workers' too, after the backoff.
    await settleJob(db, mine, { kind: 'retry', error: 'refund not sent: timeout' });
    expect(await claimJobs(db, 'refund', { limit: 1, leaseMs: 60_000, subject: s })).toEqual([]);
  });

  it('a worker settles only its own claim: a late one whose lease lapsed records nothing, though the attempt count came round again', async () => {
    const s = subject('late');
    await enqueueJob(db, { kind: 'refund', subject: s, businessId: null, mode: null });
    const [first] = await claimJobs(db, 'refund', { limit: 1, leaseMs: 50, subject: s });
    expect(first.attempts).toBe(1);
    // Its lease lapses; another claims the job, is told to look again with its tries starting over, and a third claims it.
    const [second] = await waitFor(async () => {
      const taken = await claimJobs(other, 'refund', { limit: 1, leaseMs: 60_000, subject: s });
      return taken.length > 0 ? taken : undefined;
    });
    expect(await settleJob(other, second, { kind: 'wait', delayMs: 0, resetAttempts: true })).toBe('pending');
    const [third] = await claimJobs(other, 'refund', { limit: 1, leaseMs: 60_000, subject: s });
    expect(third.attempts).toBe(first.attempts);
    // The first worker finishes at last: its outcome must not land on the third's claim, nor free the job for a fourth.
    expect(await settleJob(db, first, { kind: 'retry', error: 'late' })).toBeNull();
    expect(await claimJobs(db, 'refund', { limit: 1, leaseMs: 60_000, subject: s })).toEqual([]);
    expect(await settleJob(other, third, { kind: 'done' })).toBe('done');
  });

  it('a worker claims each job of a pass just before running it, so a pass longer than one lease never runs a job twice', async () => {
    // Only this test's jobs are due: the earlier tests' leftovers would be run by these workers too.
    await db.execute(sql`UPDATE jobs SET state = 'done' WHERE kind = 'refund' AND state = 'pending'`);
    const prefix = subject('pass');
    const total = 12;
    await db.execute(sql`
      INSERT INTO jobs (kind, subject, max_attempts, run_at) SELECT 'refund', ${prefix} || '-' || g, 5, now() - interval '1 second' FROM generate_series(1, ${total}) g`);
    const runs = new Map<string, number>();
    // Each run takes 400 ms of a 3 s lease: ten claimed at once under one lease would outlast it by the ninth.
    const handler: JobHandler<null> = {
      kind: 'refund',
      leaseMs: 3_000,
      failed: null,
      run: async (_db, job) => {
        runs.set(job.subject, (runs.get(job.subject) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 400));
        return { outcome: { kind: 'done' }, result: null };
      },
    };
    const stops = [startJobWorker(db, handler, { batch: 10, pollMs: 50 }), startJobWorker(other, handler, { batch: 10, pollMs: 50 })];
    try {
      await waitFor(async () => {
        const { rows } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM jobs WHERE subject LIKE ${`${prefix}-%`} AND state = 'done'`);
        return rows[0].n === total || undefined;
      }, 60_000);
    } finally {
      await Promise.all(stops.map((stop) => stop()));
    }
    expect(runs.size).toBe(total);
    expect([...runs.values()].filter((n) => n > 1)).toEqual([]);
  });
});
