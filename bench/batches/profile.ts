import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createBusiness } from '../../lib/admin/businesses';
import { createPayoutsBatch } from '../../lib/batches/create-payouts-batch';
import { issueCardsBatch } from '../../lib/batches/issue-cards-batch';
import { createDb } from '../../lib/db/client';
import { clearingAccountId } from '../../lib/ledger/accounts';
import { postTransaction } from '../../lib/ledger/post-transaction';
import { parsePayoutRequest } from '../../lib/payouts/payout-request';
import { fmt, openBenchEnv, percentile } from '../bench-env';

/**
 * Where a payout batch of 100 spends its time, in one process without HTTP:
 * BATCHES batches (card-to-card, random pairs of CARDS cards), first one at a
 * time, then CONCURRENCY at once; prints payouts/s and each kind of statement's
 * count and time per batch, as the pg client saw them (round trip included).
 * `DATABASE_URL=… npx tsx bench/batches/profile.ts`.
 */
const CARDS = Number(process.env.PROFILE_CARDS ?? 2000);
const BATCHES = Number(process.env.PROFILE_BATCHES ?? 30);
const CONCURRENCY = Number(process.env.PROFILE_CONCURRENCY ?? 8);
const ITEMS = 100;

const timings = new Map<string, { n: number; ms: number }>();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string; name?: string };
  const text = typeof first === 'string' ? first : (first?.text ?? first?.name ?? '?');
  const label = text.replace(/\s+/g, ' ').trim().slice(0, 60);
  const t = performance.now();
  const out = (query as any).apply(this, args);
  if (out && typeof out.then === 'function') {
    return out.finally(() => {
      const s = timings.get(label) ?? { n: 0, ms: 0 };
      s.n++;
      s.ms += performance.now() - t;
      timings.set(label, s);
    });
  }
  return out;
} as typeof query;

async function main() {
  const env = await openBenchEnv();
  const { db, pool } = createDb(env.databaseUrl, CONCURRENCY + 2);
  try {
    const biz = await createBusiness(db, { name: 'profile batches' });
    const key = await db.execute<{ id: number }>(sql`SELECT id FROM api_keys WHERE business_id = ${biz.id} AND mode = 'test'`);
    const actor = { type: 'api_key' as const, id: String(key.rows[0].id) };
    const scope = { businessId: biz.id, mode: 'test' as const, actor };
    const cards: string[] = [];
    for (let i = 0; i < CARDS; i += 1000) {
      const items = Array.from({ length: Math.min(1000, CARDS - i) }, (_, k) => ({
        phone_number: `+2519${String(i + k).padStart(8, '0')}`,
        currency: 'ETB' as const,
        first_name: `P${k}`,
      }));
      const made = await issueCardsBatch(db, { ...scope, items });
      for (const r of made) if (r.ok) cards.push(r.value.card_number);
    }
    const deposits = await clearingAccountId(db, 'deposits', 'test', 'ETB');
    const accounts = await db.execute<{ id: number }>(sql`SELECT account_id AS id FROM cards WHERE business_id = ${biz.id} ORDER BY id`);
    const each = 1_000_000_000;
    await db.transaction((tx) =>
      postTransaction(tx, {
        mode: 'test',
        kind: 'bench_funding',
        businessId: biz.id,
        actor: { type: 'system', id: 'profile' },
        postings: [{ accountId: deposits, amount: -each * accounts.rows.length }, ...accounts.rows.map((r) => ({ accountId: Number(r.id), amount: each }))],
      }),
    );
    await db.execute(sql`VACUUM ANALYZE`);
    const batch = () =>
      Array.from({ length: ITEMS }, () => {
        const a = Math.floor(Math.random() * cards.length);
        const b = (a + 1 + Math.floor(Math.random() * (cards.length - 1))) % cards.length;
        return parsePayoutRequest({ card_number: cards[a], destination_card_number: cards[b], amount: 100 });
      });
    const run = async (label: string, concurrency: number) => {
      timings.clear();
      const times: number[] = [];
      const t0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next++ < BATCHES) {
            const t = performance.now();
            const out = await createPayoutsBatch(db, { ...scope, items: batch() });
            if (out.some((r) => !r.ok)) throw new Error('an item failed');
            times.push(performance.now() - t);
          }
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      console.log(`${label}: ${fmt((BATCHES * ITEMS) / seconds)} payouts/s, batch p50 ${fmt(percentile(times, 50))} ms`);
      for (const [q, s] of [...timings].sort((x, y) => y[1].ms - x[1].ms).slice(0, 8))
        console.log(`  ${fmt(s.n / BATCHES).padStart(7)}/batch ${fmt(s.ms / BATCHES).padStart(9)} ms/batch  ${q}`);
    };
    await run('warm-up', 1);
    await run('one at a time', 1);
    await run(`${CONCURRENCY} at once`, CONCURRENCY);
    // Whether PostgreSQL plans the payout statement afresh each time (custom) or once (generic), on one connection.
    const plans = await db.execute<{ generic_plans: number; custom_plans: number }>(
      sql`SELECT generic_plans, custom_plans FROM pg_prepared_statements ORDER BY custom_plans + generic_plans DESC LIMIT 1`,
    );
    for (const p of plans.rows) console.log(`most run prepared statement, one connection: planned ${p.generic_plans} times generic, ${p.custom_plans} custom`);
  } finally {
    await pool.end();
    await env.close();
  }
}

await main();
