import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { withIdempotency } from '../lib/api/idempotency';
import { pruneIdempotencyKeys } from '../lib/api/prune-idempotency-keys';
import { testDb } from './helpers';

const keysOf = async (apiKeyId: number) =>
  (
    await testDb().execute<{ key: string; state: string; hours_left: number }>(sql`
    SELECT key, state, (extract(epoch FROM expires_at - now()) / 3600)::float8 AS hours_left FROM idempotency_keys WHERE api_key_id = ${apiKeyId} ORDER BY key`)
  ).rows;

describe('Idempotency-Key answers over time', () => {
  it('are pruned only past their 24 hours, a batch at a time, saying when more are left', async () => {
    const apiKeyId = randomInt(1_000_000_000, 2_000_000_000);
    // Uncommitted until the end, so the test server's own pruning job cannot take these rows first.
    await testDb().transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO idempotency_keys (api_key_id, key, request_hash, state, response_status, response_body, expires_at)
        SELECT ${apiKeyId}, 'old-' || g, 'h', 'done', 200, '{}', now() - interval '1 second' FROM generate_series(1, 5) g`);
      await tx.execute(sql`
        INSERT INTO idempotency_keys (api_key_id, key, request_hash, state, expires_at)
        VALUES (${apiKeyId}, 'fresh-1', 'h', 'done', now() + interval '1 hour'), (${apiKeyId}, 'fresh-2', 'h', 'committed', now() + interval '24 hours'),
               (${apiKeyId}, 'in-progress', 'h', 'in_progress', now() + interval '24 hours')`);
      const left = async () =>
        (await tx.execute<{ key: string }>(sql`SELECT key FROM idempotency_keys WHERE api_key_id = ${apiKeyId} ORDER BY key`)).rows.map((r) => r.key);
      const prune = () => pruneIdempotencyKeys(tx, 3);
      // Other test files only write keys good for 24 hours, so every expired key is one of these five.
      expect(await prune()).toBe(true);
      expect((await left()).filter((k) => k.startsWith('old-'))).toHaveLength(2);
      expect(await prune()).toBe(false);
      expect(await left()).toEqual(['fresh-1', 'fresh-2', 'in-progress']);
      expect(await prune()).toBe(false);
    });
    expect((await keysOf(apiKeyId)).map((k) => k.key)).toEqual(['fresh-1', 'fresh-2', 'in-progress']);
  });

  it('a claim taken over from a request that died gets a full 24 hours of its own', async () => {
    const apiKeyId = randomInt(1_000_000_000, 2_000_000_000);
    // A request claimed the key nearly 24 hours ago and died before committing anything.
    await testDb().execute(sql`
      INSERT INTO idempotency_keys (api_key_id, key, request_hash, state, created_at, expires_at)
      VALUES (${apiKeyId}, 'abandoned', 'fingerprint', 'in_progress', now() - interval '23 hours 59 minutes', now() + interval '1 minute')`);
    let runs = 0;
    const res = await withIdempotency(testDb(), { apiKeyId, key: 'abandoned', fingerprint: 'fingerprint' }, async () => {
      runs++;
      return new Response('{"ok":true}', { status: 200 });
    });
    expect(res.status).toBe(200);
    expect(runs).toBe(1);
    const [row] = await keysOf(apiKeyId);
    expect(row.state).toBe('done');
    expect(row.hours_left).toBeGreaterThan(23.9);
  });
});
