import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { businessWithCard } from './api/payouts-fixtures';
import { createCard, testDb, type TestBusiness } from './helpers';

/**
 * The payout route in this process (lib/api/api-route.ts, confirmsKey) with a
 * limit of 2 requests and almost no refill: a remembered key over the limit is
 * answered 429 with no statement sent, even once the key is revoked, as any
 * key over the limit is.
 */
let POST: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** Key lookups and payout statements (which confirm the key) this process sent. */
let lookups = 0;
let payoutStatements = 0;
let biz: TestBusiness;
let body: string;

beforeAll(async () => {
  Object.assign(process.env, { DATABASE_URL: inject('databaseUrl'), RATE_LIMIT_BURST: '2', RATE_LIMIT_PER_SECOND: '0.001', RATE_LIMIT_HOLD_MS: '1' });
  ({ POST } = await import('../app/api/v1/card/payouts/route'));
  const { getDb } = await import('../lib/db/client');
  getDb();
  const { pool } = (globalThis as unknown as { __giftcardDb: { pool: { query: (...a: unknown[]) => unknown } } }).__giftcardDb;
  const query = pool.query.bind(pool);
  pool.query = (...args: unknown[]) => {
    const text = String((args[0] as { text?: string })?.text ?? args[0]);
    if (text.includes('FROM api_keys WHERE key_hash')) lookups++;
    if (text.includes('INSERT INTO payouts')) payoutStatements++;
    return query(...args);
  };
  let source: string;
  ({
    biz,
    card: { card_number: source },
  } = await businessWithCard(10_000));
  body = JSON.stringify({ card_number: source, destination_card_number: (await createCard(biz.test)).card_number, amount: 100 });
});

const pay = () =>
  POST(
    new Request('http://localhost/api/v1/card/payouts', {
      method: 'POST',
      headers: { authorization: `Bearer ${biz.keys.test}`, 'content-type': 'application/json' },
      body,
    }),
    { params: Promise.resolve({}) },
  );

describe('a remembered API key over the rate limit', () => {
  it('is answered 429 without a statement, revoked or not', async () => {
    // The first payout reads the key and remembers it; the second acts on memory with the payout statement alone.
    expect((await pay()).status).toBe(200);
    expect(lookups).toBe(1);
    expect((await pay()).status).toBe(200);
    expect([lookups, payoutStatements]).toEqual([1, 2]);

    await testDb().execute(sql`UPDATE api_keys SET active = false, revoked_at = now() WHERE business_id = ${biz.id} AND mode = 'test'`);
    const res = await pay();
    expect(res.status).toBe(429);
    expect([lookups, payoutStatements]).toEqual([1, 2]);
  });
});
