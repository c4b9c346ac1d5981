import { sql } from 'drizzle-orm';
import { createDb } from '../../lib/db/client';
import { seedCards } from '../seed-cards';
import { fmt, openBenchEnv, percentile, timeCalls, writeResult } from '../bench-env';

/**
 * GET /card page 1 and GET /card/{card_number} over HTTP for a business with
 * 100 cards and one with 100,000, in the same run: p95 must stay within 2x.
 */
const BIG = Number(process.env.BENCH_CARDS ?? 100_000);
const SMALL = 100;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);

async function main() {
  const env = await openBenchEnv({ server: true });
  const { db, pool } = createDb(env.databaseUrl, 4);
  try {
    const base = env.server!.baseUrl;
    const admin = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json());

    const makeBusiness = async (name: string) => (await admin('/api/admin/businesses', { name })).data as { id: number; api_keys: { test: string } };
    const small = await makeBusiness('bench-small');
    const big = await makeBusiness('bench-big');

    const seed = async (businessId: number, count: number) => {
      const t = performance.now();
      const cards = await seedCards(db, businessId, count);
      await db.execute(sql`ANALYZE`);
      return { cards, seconds: (performance.now() - t) / 1000 };
    };

    const smallSeed = await seed(small.id, SMALL);
    const bigSeed = await seed(big.id, BIG);
    console.log(`seeded ${SMALL} and ${BIG} cards (${fmt(bigSeed.seconds)} s) on ${env.databaseLabel}`);

    const get = (key: string, path: string) =>
      fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } }).then(async (r) => {
        if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
        await r.arrayBuffer();
      });
    const measure = async (key: string, cards: string[]) => {
      await timeCalls(50, 4, () => get(key, '/api/v1/card'));
      const list = await timeCalls(REQUESTS, 4, () => get(key, '/api/v1/card'));
      const detail = await timeCalls(REQUESTS, 4, (i) => get(key, `/api/v1/card/${cards[(i * 7919) % cards.length]}`));
      return { list: { p50: percentile(list, 50), p95: percentile(list, 95) }, detail: { p50: percentile(detail, 50), p95: percentile(detail, 95) } };
    };
    // Interleave the two sizes so machine noise lands on both.
    const s1 = await measure(small.api_keys.test, smallSeed.cards);
    const b1 = await measure(big.api_keys.test, bigSeed.cards);
    const listRatio = b1.list.p95 / s1.list.p95;
    const detailRatio = b1.detail.p95 / s1.detail.p95;
    console.log('');
    console.log(`GET /card page 1     p95 at ${SMALL}: ${fmt(s1.list.p95)} ms   at ${BIG}: ${fmt(b1.list.p95)} ms   ratio ${fmt(listRatio)} (target <= 2)`);
    console.log(
      `GET /card/{number}   p95 at ${SMALL}: ${fmt(s1.detail.p95)} ms   at ${BIG}: ${fmt(b1.detail.p95)} ms   ratio ${fmt(detailRatio)} (target <= 2)`,
    );
    console.log(
      `(p50: list ${fmt(s1.list.p50)} / ${fmt(b1.list.p50)} ms, detail ${fmt(s1.detail.p50)} / ${fmt(b1.detail.p50)} ms; ${REQUESTS} requests each, 4 in flight)`,
    );
    writeResult('cards', {
      database: env.databaseLabel,
      small: SMALL,
      big: BIG,
      requests: REQUESTS,
      list_p95_ms: [s1.list.p95, b1.list.p95],
      detail_p95_ms: [s1.detail.p95, b1.detail.p95],
      list_ratio: listRatio,
      detail_ratio: detailRatio,
      pass: listRatio <= 2 && detailRatio <= 2,
    });
  } finally {
    await pool.end();
    await env.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
