import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { createDb, type Db } from '../../lib/db/client';
import { payoutTotals, type HistoryTotals } from '../../lib/dashboard/history-totals';
import { foldAll } from '../../lib/dashboard/history-totals-fold';
import { searchPayouts, type PayoutFilters } from '../../lib/dashboard/search-payouts';
import { dayIn } from '../../lib/time-zone';
import { fmt, openBenchEnv, percentile, writeResult } from '../bench-env';

/**
 * The totals above the payouts list (lib/dashboard/history-totals.ts), timed as
 * a function call against PostgreSQL: one business with 1,000 payouts and one
 * with 1,000,000, both over the same year, seeded with set-based SQL on four
 * connections at once and then folded into the rollup. p50 and p95 at both sizes and the ratio of the p95s
 * (target <= 2) for the unfiltered list and for status, type and date
 * filters, plus one SUM over the rows at the large size for comparison. Run
 * alone: `npx tsx bench/dashboard/history-totals.ts` (BENCH_TOTALS_PAYOUTS,
 * BENCH_TOTALS_CALLS to resize).
 */
const BIG = Number(process.env.BENCH_TOTALS_PAYOUTS ?? 1_000_000);
const SMALL = 1_000;
const CALLS = Number(process.env.BENCH_TOTALS_CALLS ?? 200);
const WRITERS = 4;
// A zone 5:45 from UTC, so every date filter has part-hours at both ends, read from the rows.
const TIME_ZONE = 'Asia/Kathmandu';
const YEAR_SECONDS = 365 * 24 * 3600;

async function seed(db: Db, name: string, count: number): Promise<number> {
  const [{ id }] = (
    await db.execute<{ id: number }>(
      sql`INSERT INTO businesses (name, merchant_id, time_zone) VALUES (${name}, ${`mer_bench_${name}_${Date.now()}`}, ${TIME_ZONE}) RETURNING id`,
    )
  ).rows;
  const chunk = Math.ceil(count / WRITERS / 50_000) * 50_000 || count;
  const chunks: [number, number][] = [];
  for (let done = 0; done < count; done += chunk) chunks.push([done, Math.min(count, done + chunk)]);
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < chunks.length) {
        const [from, upto] = chunks[next++];
        await db.execute(sql`
          INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference, is_ledger_topup,
                               source_card_number, actor_type, actor_id, created_at, updated_at)
          SELECT ${id}, 'test', (ARRAY['card_to_card', 'card_to_card', 'bank', 'b2b', 'bank'])[1 + g % 5],
                 CASE WHEN g % 50 = 0 THEN 'failed' WHEN g % 97 = 0 THEN 'pending' ELSE 'success' END,
                 CASE WHEN g % 10 = 3 THEN 'USD' ELSE 'ETB' END, 100 + (g::bigint * 7919) % 100000, (g % 5 <> 4)::int * (10 + g % 90),
                 (ARRAY['sender', 'receiver', 'business', 'customer', 'business'])[1 + g % 5],
                 'po_totals_' || ${id} || '_' || g, g % 5 = 4, '4000000000000002', 'system', 'bench',
                 now() - ((g::bigint * ${YEAR_SECONDS}) / ${count} || ' seconds')::interval, now()
          FROM generate_series(${from}::int, ${upto - 1}::int) g`);
      }
    }),
  );
  return id;
}

interface Kind {
  name: string;
  filters: (i: number) => PayoutFilters;
}

const daysAgo = (n: number) => dayIn(TIME_ZONE, new Date(Date.now() - n * 86_400_000));
const KINDS: Kind[] = [
  { name: 'unfiltered', filters: () => ({}) },
  { name: 'status failed', filters: () => ({ status: 'failed' }) },
  { name: 'type bank', filters: () => ({ type: 'bank' }) },
  { name: 'one day', filters: (i) => ({ from: daysAgo(1 + (i % 60)), to: daysAgo(1 + (i % 60)) }) },
  { name: 'last 30 days', filters: (i) => ({ from: daysAgo(30 + (i % 20)), to: daysAgo(i % 20) }) },
  { name: '90 days, success, c2c', filters: (i) => ({ from: daysAgo(120 + (i % 30)), to: daysAgo(30 + (i % 30)), status: 'success', type: 'card_to_card' }) },
];

async function timeKind(db: Db, businessId: number, kind: Kind): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    const totals: HistoryTotals = await payoutTotals(db, { businessId, mode: 'test', timeZone: TIME_ZONE, filters: kind.filters(i) });
    samples.push(performance.now() - t);
    if (kind.name === 'unfiltered' && totals.count === 0) throw new Error('the totals are empty: the rollup was not written');
  }
  return samples;
}

/** The totals straight from the rows, to check the rollup gives the same and to show what a SUM over every row costs. */
async function sumOfRows(db: Db, businessId: number) {
  const t = performance.now();
  const r = await db.execute<{ count: string; amount: string }>(
    sql`SELECT count(*) AS count, sum(amount) AS amount FROM payouts WHERE business_id = ${businessId} AND mode = 'test'`,
  );
  return { ms: performance.now() - t, count: Number(r.rows[0].count), amount: Number(r.rows[0].amount) };
}

export async function runHistoryTotalsBench(databaseUrl: string, label: string): Promise<boolean> {
  const { db, pool } = createDb(databaseUrl, WRITERS + 1);
  try {
    const t = performance.now();
    const small = await seed(db, 'totals-small', SMALL);
    const big = await seed(db, 'totals-big', BIG);
    const seeded = performance.now();
    await foldAll(db, 'payouts');
    const folded = performance.now();
    await db.execute(sql`VACUUM ANALYZE payouts, history_totals`);
    const rollupRows = await db.execute<{ business_id: number; rows: string }>(
      sql`SELECT business_id, count(*) AS rows FROM history_totals WHERE business_id IN (${small}, ${big}) GROUP BY 1`,
    );
    console.log(
      `history totals: seeded ${SMALL} and ${BIG} payouts over a year in ${fmt((seeded - t) / 1000)} s on ${label}, folded into the rollup in ${fmt((folded - seeded) / 1000)} s`,
    );
    console.log(`  rollup rows: ${rollupRows.rows.map((r) => `${Number(r.business_id) === small ? 'small' : 'big'} ${r.rows}`).join(', ')}`);

    for (const id of [small, big]) {
      const direct = await sumOfRows(db, id);
      const rolled = await payoutTotals(db, { businessId: id, mode: 'test', timeZone: TIME_ZONE, filters: {} });
      const amount = rolled.currencies.reduce((s, c) => s + c.amount, 0);
      if (direct.count !== rolled.count || direct.amount !== amount)
        throw new Error(`rollup ${rolled.count}/${amount} != rows ${direct.count}/${direct.amount}`);
      console.log(`  ${id === small ? 'small' : 'big  '}: ${direct.count} payouts; one SUM over the rows took ${fmt(direct.ms)} ms (the rollup agrees)`);
    }

    const figures: Record<string, { small: [number, number]; big: [number, number]; ratio: number }> = {};
    for (const kind of KINDS) {
      await timeKind(db, small, kind);
      await timeKind(db, big, kind);
      const s: number[] = [];
      const b: number[] = [];
      // Interleave the sizes so machine noise lands on both.
      for (let round = 0; round < 2; round++) {
        s.push(...(await timeKind(db, small, kind)));
        b.push(...(await timeKind(db, big, kind)));
      }
      const f = {
        small: [percentile(s, 50), percentile(s, 95)] as [number, number],
        big: [percentile(b, 50), percentile(b, 95)] as [number, number],
        ratio: 0,
      };
      f.ratio = f.big[1] / f.small[1];
      figures[kind.name] = f;
      console.log(
        `totals ${kind.name.padEnd(22)} p50/p95 at ${SMALL}: ${fmt(f.small[0])}/${fmt(f.small[1])} ms   at ${BIG}: ${fmt(f.big[0])}/${fmt(f.big[1])} ms   p95 ratio ${fmt(f.ratio)}`,
      );
    }

    // The list itself sorted by amount, first page and a page found by cursor, on the (business, mode, amount, id) index.
    const pageTimes = async (id: number) => {
      const out: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now();
        const first = await searchPayouts(db, {
          businessId: id,
          mode: 'test',
          timeZone: TIME_ZONE,
          filters: { status: 'success' },
          sort: 'largest',
          limit: 25,
        });
        await searchPayouts(db, {
          businessId: id,
          mode: 'test',
          timeZone: TIME_ZONE,
          filters: { status: 'success' },
          sort: 'largest',
          limit: 25,
          after: first.next,
        });
        out.push(performance.now() - t0);
      }
      return out;
    };
    await pageTimes(small);
    await pageTimes(big);
    const ps = await pageTimes(small);
    const pb = await pageTimes(big);
    const pageRatio = percentile(pb, 95) / percentile(ps, 95);
    console.log(
      `list by amount (2 pages)      p95 at ${SMALL}: ${fmt(percentile(ps, 95))} ms   at ${BIG}: ${fmt(percentile(pb, 95))} ms   ratio ${fmt(pageRatio)}`,
    );

    const pass = Object.values(figures).every((f) => f.ratio <= 2);
    console.log(`(${CALLS * 2} calls per kind and size, one at a time; target: every p95 ratio <= 2: ${pass ? 'met' : 'NOT met'})`);
    writeResult('dashboard-history-totals', {
      database: label,
      small: SMALL,
      big: BIG,
      calls: CALLS * 2,
      p50_p95_ms: Object.fromEntries(Object.entries(figures).map(([k, f]) => [k, { small: f.small, big: f.big }])),
      ratios: Object.fromEntries(Object.entries(figures).map(([k, f]) => [k, f.ratio])),
      list_by_amount_p95_ms: [percentile(ps, 95), percentile(pb, 95)],
      pass,
    });
    return pass;
  } finally {
    await pool.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const env = await openBenchEnv();
  try {
    await runHistoryTotalsBench(env.databaseUrl, env.databaseLabel);
  } finally {
    await env.close();
  }
}
