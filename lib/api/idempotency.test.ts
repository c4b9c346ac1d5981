import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDb } from '../../tests/helpers';
import { CommittedPart } from '../db/commit-hooks';
import { idempotencyKeys } from '../db/schema';
import type { Tx } from '../db/client';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { clearingAccountId } from '../ledger/accounts';
import { postTransaction } from '../ledger/post-transaction';
import { withIdempotency } from './idempotency';

const API_KEY = -424_242;

type Rails = ['deposits' | 'wallet', 'bank' | 'checkout'];

/** Moves 100 between two clearing accounts inside `tx`, tagged by reference. */
async function moveHundred(tx: Tx, reference: string, rails: Rails) {
  const db = testDb();
  const [a, b] = await Promise.all([clearingAccountId(db, rails[0], 'test', 'ETB'), clearingAccountId(db, rails[1], 'test', 'ETB')]);
  await postTransaction(tx, {
    mode: 'test',
    kind: 'idempotency_test',
    businessId: null,
    reference,
    actor: { type: 'system', id: 'test' },
    postings: [
      { accountId: a, amount: -100 },
      { accountId: b, amount: 100 },
    ],
  });
}

/** A handler that moves 100 between two clearing accounts in its own transaction, tagged by reference. */
function movingHandler(reference: string, gate?: Promise<void>, rails: Rails = ['deposits', 'bank']) {
  let calls = 0;
  const run = async () => {
    calls++;
    await inTransaction(testDb(), async (tx) => {
      await moveHundred(tx, reference, rails);
      await gate;
    });
    return new Response(JSON.stringify({ ok: reference }), { status: 200 });
  };
  return { run, calls: () => calls };
}

const movements = async (reference: string) =>
  Number((await testDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${reference}`)).rows[0].n);

async function seedClaim(key: string, state: string, ageSeconds: number) {
  await testDb()
    .insert(idempotencyKeys)
    .values({
      apiKeyId: API_KEY,
      key,
      requestHash: 'h',
      state,
      createdAt: sql`now() - make_interval(secs => ${ageSeconds})`,
      expiresAt: sql`now() + interval '1 day'`,
    });
}

const opts = (key: string) => ({ apiKeyId: API_KEY, key, fingerprint: 'h' });

describe('idempotency after a crash', () => {
  it('runs again a claim that died before committing anything, once it is a minute old', async () => {
    const key = randomUUID();
    const ref = `idem-${key}`;
    await seedClaim(key, 'in_progress', 120);
    const h = movingHandler(ref);
    const res = await withIdempotency(testDb(), opts(key), h.run);
    expect(res.status).toBe(200);
    expect(h.calls()).toBe(1);
    expect(await movements(ref)).toBe(1);
    const replay = await withIdempotency(testDb(), opts(key), h.run);
    expect(await replay.json()).toEqual({ ok: ref });
    expect(h.calls()).toBe(1);
  });

  it('keeps answering in progress while the claim is young', async () => {
    const key = randomUUID();
    await seedClaim(key, 'in_progress', 5);
    const h = movingHandler(`idem-${key}`);
    await expect(withIdempotency(testDb(), opts(key), h.run)).rejects.toMatchObject({ code: 'request_in_progress' });
    expect(h.calls()).toBe(0);
  });

  it('never runs again a request that committed but lost its answer', async () => {
    const key = randomUUID();
    await seedClaim(key, 'committed', 3600);
    const h = movingHandler(`idem-${key}`);
    const err = await withIdempotency(testDb(), opts(key), h.run).catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.detail).toMatch(/took effect/);
    expect(h.calls()).toBe(0);
  });

  it('a run whose claim was taken over cannot commit its money', async () => {
    const key = randomUUID();
    const slowRef = `idem-slow-${key}`;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = movingHandler(slowRef, gate);
    const first = withIdempotency(testDb(), opts(key), slow.run).catch((e) => e);
    await expect.poll(() => slow.calls()).toBe(1);
    // The first run looks dead: its claim is aged past the minute, and a retry takes over.
    await testDb()
      .update(idempotencyKeys)
      .set({ createdAt: sql`created_at - interval '2 minutes'`, lastCommittedAt: sql`last_committed_at - interval '2 minutes'` })
      .where(and(eq(idempotencyKeys.apiKeyId, API_KEY), eq(idempotencyKeys.key, key)));
    const fastRef = `idem-fast-${key}`;
    // (other accounts, so the retry does not wait on the first run's row locks)
    const retry = await withIdempotency(testDb(), opts(key), movingHandler(fastRef, undefined, ['wallet', 'checkout']).run);
    expect(retry.status).toBe(200);
    release();
    const outcome = await first;
    expect(outcome).toMatchObject({ code: 'request_in_progress' });
    expect(await movements(slowRef)).toBe(0);
    expect(await movements(fastRef)).toBe(1);
  });

  it('a run of several parts that died part way is finished by exactly one of two racing retries, and the dead run commits nothing more', async () => {
    const key = randomUUID();
    const ref = (part: number) => `idem-part-${part}-${key}`;
    /** Commits parts from..2, one transaction each recording its part, after the gate for any part past the first. */
    const parts =
      (from: number, gate?: Promise<void>, rails: Rails = ['deposits', 'bank']) =>
      async () => {
        for (let part = from; part <= 2; part++) {
          if (part > from) await gate;
          await inTransaction(testDb(), async (tx) => {
            await moveHundred(tx, ref(part), rails);
            return new CommittedPart({ [String(part)]: ref(part) }, null);
          });
        }
        return new Response(JSON.stringify({ from }), { status: 200 });
      };
    let resumes = 0;
    const resumable = {
      ...opts(key),
      resumeCommitted: (committed: unknown) => {
        const done = Object.keys((committed ?? {}) as object).length;
        return () => {
          resumes++;
          return parts(done, undefined, ['wallet', 'checkout'])();
        };
      },
    };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = withIdempotency(testDb(), resumable, parts(0, gate)).catch((e) => e);
    await expect.poll(() => movements(ref(0))).toBe(1);
    // Young: the first run may be alive.
    await expect(withIdempotency(testDb(), resumable, parts(0))).rejects.toMatchObject({ code: 'request_in_progress' });
    await testDb()
      .update(idempotencyKeys)
      .set({ createdAt: sql`created_at - interval '2 minutes'`, lastCommittedAt: sql`last_committed_at - interval '2 minutes'` })
      .where(and(eq(idempotencyKeys.apiKeyId, API_KEY), eq(idempotencyKeys.key, key)));
    const racing = await Promise.allSettled([withIdempotency(testDb(), resumable, parts(0)), withIdempotency(testDb(), resumable, parts(0))]);
    expect(resumes).toBe(1);
    const answered = racing.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(answered.length).toBeGreaterThan(0);
    expect(await answered[0].json()).toEqual({ from: 1 });
    for (const r of racing) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'request_in_progress' });
    release();
    expect(await first).toMatchObject({ code: 'request_in_progress' });
    for (const part of [0, 1, 2]) expect(await movements(ref(part))).toBe(1);
    const [row] = await testDb()
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.apiKeyId, API_KEY), eq(idempotencyKeys.key, key)));
    expect(row.state).toBe('done');
    expect(row.committedResult).toEqual({ '0': ref(0), '1': ref(1), '2': ref(2) });
  });
});
