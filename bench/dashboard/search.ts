import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { createDb, type Db } from '../../lib/db/client';
import { searchCondition } from '../../lib/dashboard/search-cards';
import { paymentSearchCondition, payoutSearchCondition, searchEverything, type SearchResults } from '../../lib/search/search-everything';
import { fmt, openBenchEnv, percentile, writeResult } from '../bench-env';

/**
 * The dashboard's one search (lib/search/search-everything.ts), timed as a
 * function call against PostgreSQL (no HTTP, no page rendering: those are the
 * same at any size and bench/dashboard/run.ts measures the pages): one
 * business with 100 cards, 1,000 payouts and 100 payments, another with
 * 100,000 cards, 1,000,000 payouts and 100,000 payments, seeded with
 * set-based SQL. Every kind of query a person types, p95 at both sizes and
 * the ratio (target <= 2), plus the plan of each query at the large size so a
 * sequential scan shows. Run alone: `npx tsx bench/dashboard/search.ts`
 * (BENCH_SEARCH_CARDS, BENCH_SEARCH_PAYOUTS, BENCH_SEARCH_CALLS to resize).
 */
const BIG_CARDS = Number(process.env.BENCH_SEARCH_CARDS ?? 100_000);
const BIG_PAYOUTS = Number(process.env.BENCH_SEARCH_PAYOUTS ?? 1_000_000);
const SMALL = { cards: 100, payouts: 1_000, payments: 100 };
const BIG = { cards: BIG_CARDS, payouts: BIG_PAYOUTS, payments: BIG_CARDS };
const CALLS = Number(process.env.BENCH_SEARCH_CALLS ?? 200);

const FIRST = [
  'Abebe',
  'Tigist',
  'Dawit',
  'Hanna',
  'Solomon',
  'Meron',
  'Yonas',
  'Selam',
  'Bereket',
  'Liya',
  'Kidus',
  'Ruth',
  'Samuel',
  'Eden',
  'Natnael',
  'Bethlehem',
  'Henok',
  'Mahlet',
  'Robel',
  'Saron',
];
const LAST = [
  'Kebede',
  'Haile',
  'Tesfaye',
  'Girma',
  'Alemu',
  'Bekele',
  'Tadesse',
  'Wolde',
  'Mengistu',
  'Desta',
  'Ayele',
  'Negash',
  'Assefa',
  'Gebre',
  'Mulugeta',
  'Lemma',
  'Tefera',
  'Worku',
  'Abera',
  'Shiferaw',
];
const arr = (xs: string[]) => `{${xs.join(',')}}`;

/** Card g of business b: number, national phone number, holder name, as the seed writes them. */
const cardNumber = (biz: number, g: number) => `4${String(biz).padStart(3, '0')}${String(g).padStart(12, '0')}`;
const national = (biz: number, g: number) => `9${biz % 10}${String(g).padStart(7, '0')}`;
const holder = (g: number) => `${FIRST[g % FIRST.length]} ${LAST[Math.floor(g / FIRST.length) % LAST.length]}`;

async function seed(db: Db, name: string, size: { cards: number; payouts: number; payments: number }): Promise<number> {
  const [{ id }] = (
    await db.execute<{ id: number }>(sql`INSERT INTO businesses (name, merchant_id) VALUES (${name}, ${`mer_bench_${name}_${Date.now()}`}) RETURNING id`)
  ).rows;
  const tag = `${id}-${Date.now()}`;
  for (let done = 0; done < size.cards; done += 50_000) {
    const upto = Math.min(size.cards, done + 50_000);
    await db.execute(sql`
      WITH g AS (SELECT g FROM generate_series(${done}::int, ${upto - 1}::int) g),
      cu AS (
        INSERT INTO customers (mode, phone_number, national_number)
        SELECT 'test', '+251' || '9' || ${id % 10} || lpad(g::text, 7, '0') || '-' || ${tag}, '9' || ${id % 10} || lpad(g::text, 7, '0') FROM g
        RETURNING id, national_number
      ), named AS (
        INSERT INTO customer_names (business_id, customer_id, first_name, last_name)
        SELECT ${id}, cu.id, (${arr(FIRST)}::text[])[1 + right(cu.national_number, 7)::int % ${FIRST.length}],
               (${arr(LAST)}::text[])[1 + (right(cu.national_number, 7)::int / ${FIRST.length}) % ${LAST.length}]
        FROM cu
      ), acc AS (
        INSERT INTO ledger_accounts (kind, name, business_id, mode, currency)
        SELECT 'card', 'card:4' || lpad(${id}::text, 3, '0') || lpad(g::text, 12, '0'), ${id}, 'test', 'ETB' FROM g
        RETURNING id, name
      )
      INSERT INTO cards (ref_id, business_id, mode, customer_id, card_number, currency, account_id, created_at, updated_at)
      SELECT gen_random_uuid()::text, ${id}, 'test', cu.id, substr(acc.name, 6), 'ETB', acc.id, now() - (right(cu.national_number, 7)::int || ' seconds')::interval, now()
      FROM cu JOIN acc ON right(acc.name, 12)::int = right(cu.national_number, 7)::int`);
  }
  // One card in a hundred cancelled, so cancelled cards are in the way of every search.
  await db.execute(sql`UPDATE cards SET cancelled_at = now() WHERE business_id = ${id} AND right(card_number, 2) = '07'`);
  for (let done = 0; done < size.payouts; done += 250_000) {
    const upto = Math.min(size.payouts, done + 250_000);
    await db.execute(sql`
      INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference,
                           source_card_number, destination_card_number, actor_type, actor_id, created_at, updated_at, completed_at)
      SELECT ${id}, 'test', 'card_to_card', CASE WHEN g % 50 = 0 THEN 'failed' ELSE 'success' END, 'ETB', 100 + g % 10000, 0, 'sender',
             'po_bench_' || ${id} || '_' || g, '4000000000000002', '4000000000000010', 'system', 'bench',
             now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
      FROM generate_series(${done}::int, ${upto - 1}::int) g`);
  }
  await db.execute(sql`
    INSERT INTO payments (business_id, mode, type, status, link_reference, merchant_reference, provider_reference, currency, amount,
                          card_id, card_number, actor_type, created_at, updated_at)
    SELECT ${id}, 'test', 'hosted', 'success', 'pl_bench_' || ${id} || '_' || g, 'ORD-' || g, 'pp_bench_' || ${id} || '_' || g, 'ETB', 1000 + g % 5000,
           0, '4000000000000002', 'system', now() - (g || ' seconds')::interval, now()
    FROM generate_series(0, ${size.payments - 1}::int) g`);
  return id;
}

interface Kind {
  name: string;
  /** The text typed for the i-th call at a size (varied so no one row stays cached). */
  query: (biz: number, size: typeof SMALL, i: number) => string;
  /** What the results must hold, so a broken search cannot look fast. */
  check: (r: SearchResults, q: string) => boolean;
}

const pickCard = (size: typeof SMALL, i: number) => (i * 7919 + 13) % size.cards;
const notCancelled = (g: number) => (g % 100 === 7 ? g + 1 : g);
const KINDS: Kind[] = [
  { name: 'card number, spaced', query: (b, s, i) => cardNumber(b, pickCard(s, i)).replace(/(\d{4})(?=\d)/g, '$1 '), check: (r) => r.cards?.length === 1 },
  { name: 'last four digits', query: (b, s, i) => cardNumber(b, pickCard(s, i)).slice(-4), check: (r) => (r.cards?.length ?? 0) >= 1 },
  { name: 'phone 0911 form', query: (b, s, i) => `0${national(b, notCancelled(pickCard(s, i)))}`, check: (r) => r.cards?.length === 1 },
  { name: 'phone 251911 form', query: (b, s, i) => `251${national(b, notCancelled(pickCard(s, i)))}`, check: (r) => r.cards?.length === 1 },
  { name: 'holder full name', query: (_b, s, i) => holder(pickCard(s, i)).toLowerCase(), check: (r) => (r.cards?.length ?? 0) >= 1 },
  { name: 'holder surname', query: (_b, s, i) => holder(pickCard(s, i)).split(' ')[1], check: (r) => (r.cards?.length ?? 0) >= 1 },
  // Any part of a reference matches (po_bench_1_28 also finds po_bench_1_280): the whole one comes first.
  { name: 'payout reference', query: (b, s, i) => `po_bench_${b}_${(i * 7919) % s.payouts}`, check: (r, q) => r.payouts?.[0]?.reference === q },
  { name: 'payment link reference', query: (b, s, i) => `pl_bench_${b}_${(i * 7919) % s.payments}`, check: (r) => r.payments?.length === 1 },
  {
    name: 'order id (merchant ref)',
    query: (_b, s, i) => `ord-${(i * 7919) % s.payments}`,
    check: (r, q) => r.payments?.[0]?.merchantReference?.toLowerCase() === q,
  },
  { name: 'nothing matches', query: () => 'zzqx nothing', check: (r) => r.cards?.length === 0 && r.payouts?.length === 0 },
];

async function timeKind(db: Db, biz: number, size: typeof SMALL, kind: Kind): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const q = kind.query(biz, size, i);
    const t = performance.now();
    const r = await searchEverything(db, { businessId: biz, mode: 'test', role: 'owner', country: 'ET', query: q });
    samples.push(performance.now() - t);
    if (!kind.check(r, q)) throw new Error(`${kind.name}: unexpected results for "${q}": ${JSON.stringify(r).slice(0, 400)}`);
  }
  return samples;
}

/** Seeds, measures and prints; returns whether every kind stayed within 2x. */
export async function runSearchBench(databaseUrl: string, label: string): Promise<boolean> {
  const { db, pool } = createDb(databaseUrl, 6);
  try {
    const t = performance.now();
    const small = await seed(db, 'search-small', SMALL);
    const big = await seed(db, 'search-big', BIG);
    await db.execute(sql`VACUUM ANALYZE cards, customers, customer_names, payouts, payments, businesses`);
    console.log(
      `search: seeded ${SMALL.cards} cards / ${SMALL.payouts} payouts and ${BIG.cards} cards / ${BIG.payouts} payouts / ${BIG.payments} payments in ${fmt((performance.now() - t) / 1000)} s on ${label}`,
    );

    const figures: Record<string, { small: number; big: number; ratio: number }> = {};
    for (const kind of KINDS) {
      await timeKind(db, small, SMALL, { ...kind });
      await timeKind(db, big, BIG, { ...kind });
      // Interleave the sizes so machine noise lands on both.
      const s: number[] = [];
      const b: number[] = [];
      for (let round = 0; round < 2; round++) {
        s.push(...(await timeKind(db, small, SMALL, kind)));
        b.push(...(await timeKind(db, big, BIG, kind)));
      }
      const f = { small: percentile(s, 95), big: percentile(b, 95), ratio: percentile(b, 95) / percentile(s, 95) };
      figures[kind.name] = f;
      console.log(
        `search ${kind.name.padEnd(24)} p95 at ${SMALL.cards}/${SMALL.payouts}: ${fmt(f.small).padStart(6)} ms   at ${BIG.cards}/${BIG.payouts}: ${fmt(f.big).padStart(6)} ms   ratio ${fmt(f.ratio)}`,
      );
    }

    // The plans at the large size: every kind must be an index scan, never a sequential scan of cards, payouts or payments.
    const plans: Record<string, string> = {};
    const explain = async (name: string, query: ReturnType<typeof sql>) => {
      const rows = (await db.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN ANALYZE ${query}`)).rows.map((r) => r['QUERY PLAN']);
      plans[name] = rows.join('\n');
      const seq = rows.filter((r) => /Seq Scan on (cards|payouts|payments|customers|customer_names)\b/.test(r));
      console.log(`plan ${name.padEnd(24)} ${seq.length ? `SEQUENTIAL SCAN: ${seq.join('; ')}` : 'indexes only'}`);
      return seq.length === 0;
    };
    // The conditions the search itself builds, so the plans shown are the plans it runs.
    const scope = { businessId: big, mode: 'test' as const, country: 'ET' };
    const cardsBy = (q: string, nameMatchLimit?: number) =>
      sql`SELECT c.id FROM cards c WHERE c.business_id = ${big} AND c.mode = 'test' AND ${searchCondition(q, { ...scope, nameMatchLimit })!} ORDER BY c.created_at DESC, c.id DESC LIMIT 9`;
    const indexed = [
      await explain('card number', cardsBy(cardNumber(big, 4242))),
      await explain('last four', cardsBy(cardNumber(big, 4242).slice(-4))),
      await explain('phone', cardsBy(`251${national(big, 4242)}`)),
      await explain('holder name (header)', cardsBy('tigist haile', 200)),
      await explain('holder name (card list)', cardsBy('tigist haile')),
      await explain(
        'payout reference',
        sql`SELECT id FROM payouts WHERE business_id = ${big} AND mode = 'test' AND ${payoutSearchCondition(`po_bench_${big}_4242`, { businessId: big, mode: 'test' })!}`,
      ),
      await explain(
        'payment references',
        sql`SELECT id FROM payments WHERE business_id = ${big} AND mode = 'test' AND ${paymentSearchCondition('ord-4242')!}
            ORDER BY lower(merchant_reference) = 'ord-4242' DESC NULLS LAST, created_at DESC, id DESC LIMIT 9`,
      ),
    ];

    const pass = Object.values(figures).every((f) => f.ratio <= 2) && indexed.every(Boolean);
    console.log(`(${CALLS * 2} searches per kind and size, one at a time, each the whole header search: every kind the owner may see)`);
    writeResult('dashboard-search', {
      database: label,
      small: SMALL,
      big: BIG,
      calls: CALLS * 2,
      p95_ms: Object.fromEntries(Object.entries(figures).map(([k, f]) => [k, [f.small, f.big]])),
      ratios: Object.fromEntries(Object.entries(figures).map(([k, f]) => [k, f.ratio])),
      indexes_only: indexed.every(Boolean),
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
    await runSearchBench(env.databaseUrl, env.databaseLabel);
  } finally {
    await env.close();
  }
}
