import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDb } from '../../tests/helpers';
import { SharedBuckets } from './shared-buckets';

/** Three "instances" (each its own leases) taking one key's tokens concurrently from one bucket in PostgreSQL. */
async function takeFromThree(opts: { perSecond: number; burst: number; lease: number }, each: number) {
  // One name for all three, as a fleet's instances share their configuration.
  const name = `test${randomUUID().slice(0, 8)}`;
  const instances = [0, 1, 2].map(() => new SharedBuckets(name, opts));
  const key = randomUUID();
  const results = await Promise.all(instances.flatMap((b) => Array.from({ length: each }, () => b.take(testDb(), key))));
  return { admitted: results.filter((r) => r.ok).length, refused: results.filter((r) => !r.ok) };
}

describe('a shared bucket over several instances', () => {
  it('admits exactly the burst when each instance counts one token at a time', async () => {
    const { admitted, refused } = await takeFromThree({ perSecond: 0.001, burst: 30, lease: 1 }, 40);
    expect(admitted).toBe(30);
    expect(refused).toHaveLength(90);
    expect(refused.every((r) => !r.ok && r.retryAfterSeconds >= 1)).toBe(true);
  });

  it('with leases never admits more than the burst, and refuses at most instances x lease early', async () => {
    const { admitted } = await takeFromThree({ perSecond: 0.001, burst: 50, lease: 5 }, 40);
    expect(admitted).toBeLessThanOrEqual(50);
    expect(admitted).toBeGreaterThanOrEqual(50 - 3 * 5);
  });

  it("refills by PostgreSQL's clock", async () => {
    const bucket = new SharedBuckets(`refill${randomUUID().slice(0, 8)}`, { perSecond: 1000, burst: 2, lease: 1 });
    const key = randomUUID();
    expect((await bucket.take(testDb(), key)).ok).toBe(true);
    expect((await bucket.take(testDb(), key)).ok).toBe(true);
    // Emptied, then aged by hand as if a second had passed: the bucket is full again.
    await testDb().execute(sql`UPDATE rate_limit_buckets SET tokens = 0, refilled_at = now() - interval '1 second' WHERE key LIKE ${`%:${key}`}`);
    expect((await bucket.take(testDb(), key)).ok).toBe(true);
    const { rows } = await testDb().execute<{ tokens: number }>(sql`SELECT tokens FROM rate_limit_buckets WHERE key LIKE ${`%:${key}`}`);
    expect(Number(rows[0].tokens)).toBeCloseTo(1, 1);
  });
});
