import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pruneIdempotencyKeys } from '../lib/api/prune-idempotency-keys';
import { testDb } from './helpers';

describe('pruning Idempotency-Key answers', () => {
  it('delete only answers past their 24 hours, a batch at a time, and say when more are left', async () => {
    const db = testDb();
    const apiKeyId = randomInt(1_000_000_000, 2_000_000_000);
    const keep = ['fresh-1', 'fresh-2', 'in-progress'];
    await db.execute(sql`
      INSERT INTO idempotency_keys (api_key_id, key, request_hash, state, response_status, response_body, expires_at)
      SELECT ${apiKeyId}, 'old-' || g, 'h', 'done', 200, '{}', now() - interval '1 second' FROM generate_series(1, 5) g`);
    await db.execute(sql`
      INSERT INTO idempotency_keys (api_key_id, key, request_hash, state, expires_at)
      VALUES (${apiKeyId}, 'fresh-1', 'h', 'done', now() + interval '1 hour'), (${apiKeyId}, 'fresh-2', 'h', 'committed', now() + interval '24 hours'),
             (${apiKeyId}, 'in-progress', 'h', 'in_progress', now() + interval '24 hours')`);
    const left = async () =>
      (await db.execute<{ key: string }>(sql`SELECT key FROM idempotency_keys WHERE api_key_id = ${apiKeyId} ORDER BY key`)).rows.map((r) => r.key);

    // Other test files only write keys good for 24 hours, so every expired key is one of these five.
    expect(await pruneIdempotencyKeys(db, 3)).toBe(true);
    expect((await left()).filter((k) => k.startsWith('old-'))).toHaveLength(2);
    expect(await pruneIdempotencyKeys(db, 3)).toBe(false);
    expect(await left()).toEqual(keep);
    expect(await pruneIdempotencyKeys(db, 3)).toBe(false);
    expect(await left()).toEqual(keep);
  });
});
