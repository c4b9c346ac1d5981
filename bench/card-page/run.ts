import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { newCardLink } from '../../lib/cards/card-links';
import { createDb } from '../../lib/db/client';
import { clearingAccountId } from '../../lib/ledger/accounts';
import { postTransaction } from '../../lib/ledger/post-transaction';
import { fmt, openBenchEnv, writeResult } from '../bench-env';
import { ensureWrk } from '../payouts/http-load';
import { seedCards } from '../seed-cards';

/**
 * The cardholder's page (GET /c/{token}) over HTTP with wrk, for a business of 100,000 cards: LINKED of them
 * have a live link and MOVES movements each (more than the page's 20). Prints its p50 and p95 beside
 * GET /api/health on the same server, and a wrong token's 404 (with the per-address limit lifted, as the
 * test server runs: every request is looked up).
 */
const CARDS = Number(process.env.BENCH_CARDS ?? 100_000);
const LINKED = 200;
const MOVES = 25;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 8;
const SCRIPT = path.join(import.meta.dirname, 'wrk-card-page.lua');
const ACTOR = { type: 'system', id: 'bench' } as const;

ensureWrk();
const env = await openBenchEnv({ server: true });
const { db, pool } = createDb(env.databaseUrl, 4);
try {
  const res = await fetch(`${env.server!.baseUrl}/api/admin/businesses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench card page' }),
  });
  const biz = (await res.json()).data as { id: number };
  const started = performance.now();
  const numbers = await seedCards(db, biz.id, CARDS);
  const deposits = await clearingAccountId(db, 'deposits', 'test', 'ETB');
  const tokens: string[] = [];
  for (let i = 0; i < LINKED; i++) {
    const number = numbers[Math.floor((i * CARDS) / LINKED)];
    const { rows } = await db.execute<{ id: number; account_id: number }>(sql`SELECT id, account_id FROM cards WHERE card_number = ${number}`);
    for (let m = 0; m < MOVES; m++) {
      await db.transaction((tx) =>
        postTransaction(tx, {
          mode: 'test',
          kind: m % 3 === 2 ? 'card_redemption' : 'test_funding',
          businessId: biz.id,
          actor: ACTOR,
          postings:
            m % 3 === 2
              ? [
                  { accountId: Number(rows[0].account_id), amount: -500 },
                  { accountId: deposits, amount: 500 },
                ]
              : [
                  { accountId: deposits, amount: -1_000 },
                  { accountId: Number(rows[0].account_id), amount: 1_000 },
                ],
        }),
      );
    }
    tokens.push((await newCardLink(db, { businessId: biz.id, mode: 'test', cardId: Number(rows[0].id) })).token);
  }
  await db.execute(sql`ANALYZE`);
  console.log(
    `seeded ${CARDS} cards, ${LINKED} linked with ${MOVES} movements each, in ${fmt((performance.now() - started) / 1000)} s on ${env.databaseLabel}`,
  );
  const tokensFile = path.join(os.tmpdir(), `bench-card-page-${process.pid}.txt`);
  fs.writeFileSync(tokensFile, `${tokens.join('\n')}\n`);

  const wrk = (mode: string) => {
    const run = spawnSync(
      'wrk',
      ['-t', '2', '-c', String(CONNECTIONS), '-d', `${SECONDS}s`, '--timeout', '10s', '-s', SCRIPT, env.server!.baseUrl, '--', mode, tokensFile],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}${run.stdout}`);
    const out = run.stdout;
    const figure = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(out)![1]) / 1000;
    return {
      perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]),
      p50Ms: figure('p50_us'),
      p95Ms: figure('p95_us'),
      non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    };
  };
  wrk('page'); // warm up: the page's code and the plans
  const health = wrk('health');
  const page = wrk('page');
  const wrong = wrk('wrong');
  fs.rmSync(tokensFile, { force: true });
  const line = (name: string, r: ReturnType<typeof wrk>) =>
    console.log(`${name.padEnd(22)} ${fmt(r.perSecond).padStart(8)} req/s   p50 ${fmt(r.p50Ms)} ms   p95 ${fmt(r.p95Ms)} ms   non-2xx ${r.non2xx}`);
  console.log('');
  line('GET /api/health', health);
  line('GET /c/{token}', page);
  line('GET /c/{wrong token}', wrong);
  console.log(`(${SECONDS} s each, ${CONNECTIONS} connections, ${CARDS} cards in the business)`);
  if (page.non2xx > 0) throw new Error(`${page.non2xx} card pages did not answer 200`);
  writeResult('card-page', {
    database: env.databaseLabel,
    cards: CARDS,
    linked: LINKED,
    movements_each: MOVES,
    seconds: SECONDS,
    connections: CONNECTIONS,
    page_per_second: page.perSecond,
    page_p50_ms: page.p50Ms,
    page_p95_ms: page.p95Ms,
    wrong_token_p95_ms: wrong.p95Ms,
    health_p95_ms: health.p95Ms,
  });
} finally {
  await pool.end();
  await env.close();
}
