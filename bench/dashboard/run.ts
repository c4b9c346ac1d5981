import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { createDb, type Db } from '../../lib/db/client';
import { fmt, openBenchEnv, percentile, signInDashboard, timeCalls, writeResult } from '../bench-env';
import { seedCards } from '../seed-cards';
import { runLiveUpdatesBench } from './live-updates';
import { runSearchBench } from './search';

/**
 * The dashboard's /cards and /payouts pages, server-rendered for a signed-in
 * owner, at 100 and at 100,000 records in the same run (p95 within 2x), and
 * the JavaScript the /cards page ships (gzipped <script src> chunks, target
 * <= 250 kB). Then the live payouts list (./live-updates.ts) and the header search (./search.ts).
 */
const BIG = Number(process.env.BENCH_RECORDS ?? 100_000);
const SMALL = 100;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const JS_BUDGET_KB = 250;
const PASSWORD = 'bench-dashboard-pass-1';

async function seedCardsWithSomeDisabled(db: Db, businessId: number, count: number) {
  const numbers = await seedCards(db, businessId, count);
  // One card in a thousand disabled, so the status filter has something to find.
  await db.execute(sql`
    WITH r AS (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM cards WHERE business_id = ${businessId})
    UPDATE cards SET status = 3, disabled_by = 'business' FROM r WHERE cards.id = r.id AND r.rn % 1000 = 1`);
  return numbers;
}

/** Payout rows as lib/payouts and the payouts page read them: settled card-to-card payouts, newest first by created_at. */
async function seedPayouts(db: Db, businessId: number, count: number) {
  for (let done = 0; done < count; done += 20_000) {
    const n = Math.min(20_000, count - done);
    await db.execute(sql`
      INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference,
                           source_card_number, destination_card_number, actor_type, actor_id, created_at, updated_at, completed_at)
      SELECT ${businessId}, 'test', 'card_to_card', CASE WHEN g % 50 = 0 THEN 'failed' ELSE 'success' END, 'ETB', 100 + g % 10000, 0, 'sender',
             'po_bench_' || ${businessId} || '_' || g, '4000000000000002', '4000000000000010', 'system', 'bench',
             now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
      FROM generate_series(${done + 1}::int, ${done + n}::int) g`);
  }
  await db.execute(sql`INSERT INTO list_counters (business_id, mode, kind, shard, count) VALUES (${businessId}, 'test', 'payouts', 0, ${count})
    ON CONFLICT (business_id, mode, kind, shard) DO UPDATE SET count = list_counters.count + ${count}`);
}

async function main() {
  const env = await openBenchEnv({ server: true });
  const { db, pool } = createDb(env.databaseUrl, 4);
  try {
    const base = env.server!.baseUrl;
    const makeBusiness = async (name: string) => {
      const email = `${name}-${randomUUID()}@example.com`;
      const res = await fetch(`${base}/api/admin/businesses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, owner_email: email, owner_password: PASSWORD }),
      });
      const body = (await res.json()) as { data: { id: number } };
      return { id: body.data.id, email };
    };
    const small = await makeBusiness('bench-small');
    const big = await makeBusiness('bench-big');

    const t = performance.now();
    const smallCards = await seedCardsWithSomeDisabled(db, small.id, SMALL);
    const bigCards = await seedCardsWithSomeDisabled(db, big.id, BIG);
    await seedPayouts(db, small.id, SMALL);
    await seedPayouts(db, big.id, BIG);
    await db.execute(sql`ANALYZE`);
    console.log(`seeded ${SMALL} and ${BIG} cards and payouts in ${fmt((performance.now() - t) / 1000)} s on ${env.databaseLabel}`);

    const smallCookie = await signInDashboard(base, small.email, PASSWORD);
    const bigCookie = await signInDashboard(base, big.email, PASSWORD);
    const get = async (cookie: string, path: string, expect: string) => {
      const res = await fetch(`${base}${path}`, { headers: { cookie }, redirect: 'manual' });
      const html = await res.text();
      if (res.status !== 200 || !html.includes(expect)) throw new Error(`${path}: ${res.status}, expected "${expect}" in the page`);
      return html;
    };

    const pages = [
      { name: 'cards', path: '/cards', expect: 'cards-table' },
      { name: 'payouts', path: '/payouts', expect: 'Payouts' },
      { name: 'cards?status=disabled', path: '/cards?status=disabled', expect: 'cards-table' },
      { name: 'cards?q=card_number', path: (cards: string[]) => `/cards?q=${cards[Math.floor(cards.length / 2)]}`, expect: 'cards-table' },
      // The seeded national numbers are 9 + business digit + 7-digit index; asked with the trunk 0 as a caller reads it out.
      {
        name: 'cards?q=phone',
        path: (cards: string[]) => `/cards?q=09${cards === smallCards ? small.id % 10 : big.id % 10}${String(Math.floor(cards.length / 2)).padStart(7, '0')}`,
        expect: 'cards-table',
      },
    ] as const;
    const p95 = (s: number[]) => percentile(s, 95);
    const figures: Record<string, { small: number; big: number; ratio: number }> = {};
    for (const page of pages) {
      const path = (cards: string[]) => (typeof page.path === 'function' ? page.path(cards) : page.path);
      const warm = async (cookie: string, cards: string[]) => timeCalls(20, 4, async () => void (await get(cookie, path(cards), page.expect)));
      await warm(smallCookie, smallCards);
      await warm(bigCookie, bigCards);
      // Interleave the two sizes in rounds so machine noise lands on both.
      const s: number[] = [];
      const b: number[] = [];
      for (let round = 0; round < 4; round++) {
        s.push(...(await timeCalls(REQUESTS / 4, 4, async () => void (await get(smallCookie, path(smallCards), page.expect)))));
        b.push(...(await timeCalls(REQUESTS / 4, 4, async () => void (await get(bigCookie, path(bigCards), page.expect)))));
      }
      figures[page.name] = { small: p95(s), big: p95(b), ratio: p95(b) / p95(s) };
    }

    // The JavaScript a browser downloads for /cards: every <script src> the HTML names, gzipped.
    const html = await get(bigCookie, '/cards', 'cards-table');
    const srcs = [...new Set([...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1].replaceAll('&amp;', '&')))];
    let jsBytes = 0;
    for (const src of srcs) {
      const res = await fetch(new URL(src, base));
      if (!res.ok) throw new Error(`${src}: ${res.status}`);
      jsBytes += gzipSync(Buffer.from(await res.arrayBuffer())).length;
    }
    const jsKb = jsBytes / 1024;

    console.log('');
    for (const [name, f] of Object.entries(figures)) {
      console.log(
        `GET /${name.padEnd(22)} p95 at ${SMALL}: ${fmt(f.small).padStart(7)} ms   at ${BIG}: ${fmt(f.big).padStart(7)} ms   ratio ${fmt(f.ratio)}${name === 'cards' || name === 'payouts' ? ' (target <= 2)' : ''}`,
      );
    }
    console.log(`/cards JavaScript: ${srcs.length} scripts, ${fmt(jsKb)} kB gzipped (target <= ${JS_BUDGET_KB} kB)`);
    console.log(`(${REQUESTS} requests per page and size, 4 in flight, signed in as the owner)`);
    writeResult('dashboard', {
      database: env.databaseLabel,
      small: SMALL,
      big: BIG,
      requests: REQUESTS,
      pages_p95_ms: Object.fromEntries(Object.entries(figures).map(([k, f]) => [k, [f.small, f.big]])),
      ratios: Object.fromEntries(Object.entries(figures).map(([k, f]) => [k, f.ratio])),
      cards_js_scripts: srcs.length,
      cards_js_gzip_kb: jsKb,
      pass: figures.cards.ratio <= 2 && figures.payouts.ratio <= 2 && jsKb <= JS_BUDGET_KB,
    });
    // The header search at 100,000 cards and 1,000,000 payouts (its own businesses in the same database); BENCH_SEARCH=0 skips it.
    // A payout's commit (through the API) to its row on an open payouts list, and the bytes of a live update.
    console.log('');
    await runLiveUpdatesBench(env);
    if (process.env.BENCH_SEARCH !== '0') {
      console.log('');
      await runSearchBench(env.databaseUrl, env.databaseLabel);
    }
  } finally {
    await pool.end();
    await env.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
