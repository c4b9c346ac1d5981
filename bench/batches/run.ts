import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { ITEMS_PER_COMMIT } from '../../lib/batches/batch-limits';
import { createDb } from '../../lib/db/client';
import { clearingAccountId } from '../../lib/ledger/accounts';
import { postTransaction } from '../../lib/ledger/post-transaction';
import { cpuProfileEnv, deliveriesDrained, fmt, openBenchEnv, percentile, request, writeResult } from '../bench-env';
import { pgbenchPayoutScript } from '../payouts/pgbench-payout-script';
import { pgbenchChunkStatement } from './pgbench-chunk-script';
import { cpuWindow, type CpuWindow, ensureWrk, runWrk } from '../payouts/http-load';

/**
 * Issue 31's figures, all in one run on one server and one PostgreSQL:
 *   1. 1,000 cards in one POST /card/batch (target under 2 s);
 *   2. payouts per second over HTTP (wrk): POST /card/payouts/batch of 100
 *      against POST /card/payouts, rounds taking turns (target 5x);
 *   3. the core's batch against pgledger's transfers, both through pgbench on
 *      the same server (target 3x): as the app sends it, ITEMS_PER_COMMIT
 *      items to a commit, each chunk its card accounts locked then one chunk
 *      statement (writeChunk); beside it the per-item path (one payout
 *      statement an item, ten to a commit, as before the chunk statement).
 * PAYOUT_CHUNK_STATEMENT=off (passed to the server) measures the HTTP figures
 * of the per-item path; BENCH_CHUNK_SIZES=10,25,… adds pgbench figures of the
 * chunk statement at those chunk sizes.
 * pgledger's SQL is read from a checkout (PGLEDGER_DIR, default the fetched
 * mirror) into its own scratch database; none of its code is in this repository.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** 1,000 cards a call; the payouts then draw from all of them (BENCH_CARD_CALLS, default 5). */
const CARD_RUNS = Number(process.env.BENCH_CARD_CALLS ?? 5);
const ITEMS = 100;
const CONNECTIONS = 8;
const PGLEDGER_DIR = process.env.PGLEDGER_DIR ?? '/work/.mirror/pgr0ss+pgledger/repo';
const CHUNK_SIZES = (process.env.BENCH_CHUNK_SIZES ?? '').split(',').filter(Boolean).map(Number);
/** The per-item path's commit size, as measured before the chunk statement. */
const ITEMS_PATH_PER_COMMIT = 10;
const median = (xs: number[]) => percentile(xs, 50);

function pgArgs(url: string) {
  const u = new URL(url);
  return {
    env: { ...process.env, PGPASSWORD: decodeURIComponent(u.password) },
    args: ['-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username)],
  };
}

/** SECONDS of pgbench -c 8 -j 2 over `script` (a file) in database `name`; answers transactions per second. */
function pgbench(url: string, name: string, script: string, vars: string[] = []): number {
  const { env, args } = pgArgs(url);
  spawnSync('psql', [...args, name, '-c', 'CHECKPOINT'], { env });
  const run = spawnSync(
    'pgbench',
    // A deadlock or serialization failure is retried, as the app retries it.
    [
      '-n',
      '-c',
      String(CONNECTIONS),
      '-j',
      '2',
      '-T',
      String(SECONDS),
      '--max-tries=10',
      '-M',
      'prepared',
      '-f',
      script,
      ...vars.flatMap((v) => ['-D', v]),
      ...args,
      name,
    ],
    {
      env,
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`pgbench failed: ${run.stderr}`);
  if (/number of failed transactions: [1-9]/.test(run.stdout)) throw new Error(`pgbench transactions failed:\n${run.stdout}`);
  const tps = /tps = ([\d.]+)/.exec(run.stdout);
  if (!tps) throw new Error(`no tps in pgbench output:\n${run.stdout}\n${run.stderr}`);
  return Number(tps[1]);
}

/** pgledger's own SQL (its ULID helpers, then pgledger.sql) in a fresh database beside ours, with `accounts` accounts. */
async function loadPgledger(serverUrl: string, name: string, accounts: number): Promise<void> {
  const show = (file: string) => {
    const out = spawnSync('git', ['--git-dir', PGLEDGER_DIR, 'show', `HEAD:${file}`], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    if (out.status !== 0) throw new Error(`pgledger not found at ${PGLEDGER_DIR} (fetch github:pgr0ss/pgledger): ${out.stderr}`);
    return out.stdout;
  };
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const c = new pg.Client({ connectionString: `${serverUrl}/${name}` });
  await c.connect();
  for (const file of ['vendor/scoville-pgsql-ulid/ulid-to-uuid.sql', 'vendor/scoville-pgsql-ulid/uuid-to-ulid.sql', 'pgledger.sql']) await c.query(show(file));
  // Numbered accounts for pgbench to draw from; allow_negative as pgledger's own performance check creates them.
  await c.query(`CREATE TABLE bench_accounts (n int PRIMARY KEY, id text NOT NULL)`);
  await c.query(`INSERT INTO bench_accounts SELECT g, (SELECT id FROM pgledger_create_account('bench-' || g, 'ETB')) FROM generate_series(1, ${accounts}) g`);
  await c.query('VACUUM ANALYZE');
  await c.end();
}

function writeScript(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

async function main() {
  ensureWrk();
  // The pool is the production default (lib/db/client.ts), not the test servers' 8: with 8 batches in flight, each holding a
  // connection for its transaction, every other read of the server queued behind them.
  const env = await openBenchEnv({
    server: true,
    serverEnv: { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000', DB_POOL_SIZE: '20', ...cpuProfileEnv() },
  });
  const base = env.server!.baseUrl;
  const { db, pool } = createDb(env.databaseUrl, 4);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-batches-'));
  const results: Record<string, unknown> = {
    database: env.databaseLabel,
    seconds: SECONDS,
    items_per_batch: ITEMS,
    chunk_statement: process.env.PAYOUT_CHUNK_STATEMENT !== 'off',
  };
  try {
    const post = async (p: string, authorization: string, body: unknown) => {
      const res = await request(`${base}${p}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: JSON.parse(res.text) };
    };
    const created = await post('/api/admin/businesses', `Bearer ${env.adminToken}`, { name: 'bench batches' });
    const biz = (created.body as { data: { id: number; api_keys: { test: string } } }).data;
    const key = biz.api_keys.test;

    // 1. 1,000 cards in one call, CARD_RUNS times, each with new phones.
    const cardTimes: number[] = [];
    const cards: string[] = [];
    for (let run = 0; run < CARD_RUNS; run++) {
      const body = {
        cards: Array.from({ length: 1000 }, (_, i) => ({
          phone_number: `+2519${String(run).padStart(2, '0')}${String(i).padStart(6, '0')}`,
          currency: 'ETB',
          first_name: `Bench ${i}`,
        })),
      };
      // What autovacuum does on a server that runs it (README: keep it on); a shared server here may not.
      await db.execute(sql`ANALYZE customers, customer_names, cards, ledger_accounts, list_counters, audit_log`);
      const t = performance.now();
      const res = await post('/api/v1/card/batch', `Bearer ${key}`, body);
      cardTimes.push(performance.now() - t);
      const made = (res.body as { data: { results: { card_number?: string }[] } }).data.results.flatMap((r) => (r.card_number ? [r.card_number] : []));
      if (res.status !== 200 || made.length !== 1000) throw new Error(`card batch: ${res.status}, ${made.length} made`);
      cards.push(...made);
    }
    results.cards_1000_ms = { median: median(cardTimes), min: Math.min(...cardTimes), max: Math.max(...cardTimes), runs: cardTimes.length };
    console.log(`1,000 cards in one call: median ${fmt(median(cardTimes))} ms (min ${fmt(Math.min(...cardTimes))}, max ${fmt(Math.max(...cardTimes))})`);

    // Every card funded in one balanced ledger transaction per 1,000.
    const deposits = await clearingAccountId(db, 'deposits', 'test', 'ETB');
    const accounts = await db.execute<{ id: number }>(sql`SELECT account_id AS id FROM cards WHERE business_id = ${biz.id} ORDER BY id`);
    for (let i = 0; i < accounts.rows.length; i += 1000) {
      const chunk = accounts.rows.slice(i, i + 1000).map((r) => Number(r.id));
      const each = 1_000_000_000;
      await db.transaction((tx) =>
        postTransaction(tx, {
          mode: 'test',
          kind: 'bench_funding',
          businessId: biz.id,
          actor: { type: 'system', id: 'bench' },
          postings: [{ accountId: deposits, amount: -each * chunk.length }, ...chunk.map((accountId) => ({ accountId, amount: each }))],
        }),
      );
    }
    await db.execute(sql`VACUUM ANALYZE`);
    const cardsFile = writeScript(tmp, 'cards.txt', `${cards.join('\n')}\n`);
    /** Waits until the server has delivered every webhook of the business, so a round's backlog never runs into the next round. */
    const drained = () => deliveriesDrained(db, { endpoints: sql`w.business_id = ${biz.id}` });

    // 2. HTTP: single payouts and batches of ITEMS, taking turns; a short untimed warm-up of each first.
    runWrk({ baseUrl: base, seconds: 2, connections: CONNECTIONS, payouts: { cardsFile, apiKey: key } });
    const batchScript = { path: path.join(import.meta.dirname, 'wrk-batch-payouts.lua'), args: [cardsFile, key, String(ITEMS)] };
    runWrk({ baseUrl: base, seconds: 2, connections: CONNECTIONS, script: batchScript });
    await drained();
    // What autovacuum does on a server that runs it, between rounds that each add thousands of rows: without it, plans
    // made while the tables were nearly empty stay (a server's cached foreign key checks read ledger_transactions and
    // webhook_deliveries whole, row after row), and a first run on a new database measured 1.5-2.9x where analysed runs measure 5-6x.
    const analyze = () => db.execute(sql`ANALYZE`);
    type CpuPerPayout = { serverMs: number; postgresMs: number };
    const rounds: {
      single: number;
      batch: number;
      ratio: number;
      batchP50Ms: number;
      non2xx: number;
      drainSingleS: number;
      drainBatchS: number;
      singleCpu: CpuPerPayout;
      batchCpu: CpuPerPayout;
    }[] = [];
    // CPU of the server and of PostgreSQL from the round's start until its webhooks are delivered, per payout.
    const perPayout = async (cpu: CpuWindow, payouts: number): Promise<CpuPerPayout> => {
      const used = await cpu.stop();
      return { serverMs: used.serverMs / payouts, postgresMs: used.postgresMs / payouts };
    };
    for (let round = 1; round <= ROUNDS; round++) {
      await analyze();
      let cpu = await cpuWindow([env.server!.process.pid!], env.databaseUrl);
      const single = runWrk({ baseUrl: base, seconds: SECONDS, connections: CONNECTIONS, payouts: { cardsFile, apiKey: key } });
      const drainSingleS = await drained();
      const singleCpu = await perPayout(cpu, single.requests);
      await analyze();
      cpu = await cpuWindow([env.server!.process.pid!], env.databaseUrl);
      const batch = runWrk({ baseUrl: base, seconds: SECONDS, connections: CONNECTIONS, script: batchScript });
      const drainBatchS = await drained();
      const batchCpu = await perPayout(cpu, batch.requests * ITEMS);
      const r = {
        single: single.perSecond,
        batch: batch.perSecond * ITEMS,
        ratio: (batch.perSecond * ITEMS) / single.perSecond,
        batchP50Ms: batch.p50Ms,
        non2xx: single.non2xx + batch.non2xx,
        drainSingleS,
        drainBatchS,
        singleCpu,
        batchCpu,
      };
      rounds.push(r);
      console.log(
        `round ${round} (load ${os.loadavg()[0].toFixed(1)}): single ${fmt(r.single)} payouts/s, batch ${fmt(r.batch)} payouts/s (${fmt(batch.perSecond)} batches/s, p50 ${fmt(batch.p50Ms)} ms): ${fmt(r.ratio)}x; webhooks still to deliver after the single round ${fmt(drainSingleS)} s, after the batch round ${fmt(drainBatchS)} s; CPU ms a payout, server + PostgreSQL: single ${fmt(singleCpu.serverMs)} + ${fmt(singleCpu.postgresMs)}, batch ${fmt(batchCpu.serverMs)} + ${fmt(batchCpu.postgresMs)}`,
      );
    }
    // Every batch item was made (a card of 10^9 never runs short): payouts written = what wrk counted, nothing refused.
    const refused = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM payouts WHERE business_id = ${biz.id} AND status <> 'success'`);
    results.http = {
      rounds,
      single_per_second: median(rounds.map((r) => r.single)),
      batch_payouts_per_second: median(rounds.map((r) => r.batch)),
      ratio: median(rounds.map((r) => r.ratio)),
      not_success: refused.rows[0].n,
    };

    // 3. pgbench: the core's batch against pgledger, same server, taking turns (BENCH_BATCHES_ONLY=http skips it).
    if (process.env.BENCH_BATCHES_ONLY === 'http') {
      console.log(JSON.stringify(results, null, 2));
      return;
    }
    const u = new URL(env.databaseUrl);
    const serverUrl = `${u.protocol}//${u.username}${u.password ? `:${u.password}` : ''}@${u.host}`;
    const ourDb = u.pathname.slice(1);
    await loadPgledger(serverUrl, `${ourDb}_pgledger`, cards.length);
    // As the core does: chunks of items to a transaction, each locking its card accounts at once in id order, then the
    // chunk's one statement (or, per item, each item's own statement); a pgbench "transaction" is the whole batch of ITEMS.
    const single = pgbenchPayoutScript().split('\n');
    const header = single.slice(0, 3).join('\n');
    const statement = single.slice(3).join('\n');
    const numbered = (text: string, i: number) => text.replace(/:([abr])\b/g, `:$1${i}`).replace(/\\set ([abr]) /g, `\\set $1${i} `);
    const items = Array.from({ length: ITEMS }, (_, i) => i);
    const pgbenchBatch = (name: string, perCommit: number, write: (chunk: number[]) => string[]) => {
      const commits = Array.from({ length: Math.ceil(ITEMS / perCommit) }, (_, c) => items.slice(c * perCommit, (c + 1) * perCommit));
      return writeScript(
        tmp,
        name,
        [
          ...items.map((i) => numbered(header, i)),
          ...commits.flatMap((chunk) => [
            'BEGIN;',
            `SELECT 1 FROM ledger_accounts WHERE id = ANY(ARRAY(SELECT account_id FROM cards WHERE id IN (${chunk.map((i) => `:a${i}, :b${i}`).join(', ')}))) ORDER BY id FOR UPDATE;`,
            ...write(chunk),
            'COMMIT;',
          ]),
          '',
        ].join('\n'),
      );
    };
    const ourItems = pgbenchBatch('ours-items.sql', ITEMS_PATH_PER_COMMIT, (chunk) => chunk.map((i) => numbered(statement, i)));
    const ourBatch = pgbenchBatch('ours-chunks.sql', ITEMS_PER_COMMIT, (chunk) => [pgbenchChunkStatement(chunk)]);
    const sizes = CHUNK_SIZES.map((n) => ({ n, script: pgbenchBatch(`ours-chunks-${n}.sql`, n, (chunk) => [pgbenchChunkStatement(chunk)]) }));
    const range = (await db.execute<{ lo: number; hi: number }>(sql`SELECT min(id) AS lo, max(id) AS hi FROM cards WHERE business_id = ${biz.id}`)).rows[0];
    const pick = '\\set a random(1, :n)\n\\set b 1 + (:a + random(0, :n - 2)) % :n\n';
    const transfer = 'SELECT 1 FROM pgledger_create_transfer((SELECT id FROM bench_accounts WHERE n = :a), (SELECT id FROM bench_accounts WHERE n = :b), 100);';
    const pgledgerOne = writeScript(tmp, 'pgledger-one.sql', `${pick}${transfer}\n`);
    const pgledgerBatch = writeScript(
      tmp,
      'pgledger-batch.sql',
      `SELECT count(*) FROM pgledger_create_transfers((SELECT array_agg((a.id, b.id, 100)::transfer_request) FROM generate_series(1, ${ITEMS}) g
  CROSS JOIN LATERAL (SELECT 1 + floor(random() * :n)::int AS x, g AS k) r
  JOIN bench_accounts a ON a.n = r.x JOIN bench_accounts b ON b.n = 1 + (r.x % :n)));\n`,
    );
    const cardVars = [`biz=${biz.id}`, `lo=${range.lo}`, `hi=${range.hi}`];
    const coreRounds: { ours: number; oursPerItem: number; pgledgerOne: number; pgledgerBatch: number; sizes: Record<number, number> }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const ours = pgbench(serverUrl, ourDb, ourBatch, cardVars) * ITEMS;
      const one = pgbench(serverUrl, `${ourDb}_pgledger`, pgledgerOne, [`n=${cards.length}`]);
      const perItem = pgbench(serverUrl, ourDb, ourItems, cardVars) * ITEMS;
      const batched = pgbench(serverUrl, `${ourDb}_pgledger`, pgledgerBatch, [`n=${cards.length}`]) * ITEMS;
      const bySize: Record<number, number> = {};
      for (const s of sizes) bySize[s.n] = pgbench(serverUrl, ourDb, s.script, cardVars) * ITEMS;
      coreRounds.push({ ours, oursPerItem: perItem, pgledgerOne: one, pgledgerBatch: batched, sizes: bySize });
      console.log(
        `core round ${round} (load ${os.loadavg()[0].toFixed(1)}): our batch ${fmt(ours)} payouts/s (${ITEMS_PER_COMMIT} a chunk statement), per item ${fmt(perItem)} (${fmt(ours / perItem)}x); pgledger ${fmt(one)} transfers/s one per transaction (${fmt(ours / one)}x), ${fmt(batched)} in batches of ${ITEMS} (${fmt(ours / batched)}x)${sizes.map((s) => `; chunks of ${s.n}: ${fmt(bySize[s.n])}`).join('')}`,
      );
    }
    results.core = {
      rounds: coreRounds,
      items_per_commit: ITEMS_PER_COMMIT,
      ours_per_second: median(coreRounds.map((r) => r.ours)),
      ours_per_item_path: median(coreRounds.map((r) => r.oursPerItem)),
      pgledger_one_per_transaction: median(coreRounds.map((r) => r.pgledgerOne)),
      pgledger_batched: median(coreRounds.map((r) => r.pgledgerBatch)),
      ratio_vs_pgledger_one: median(coreRounds.map((r) => r.ours / r.pgledgerOne)),
      ratio_vs_pgledger_batched: median(coreRounds.map((r) => r.ours / r.pgledgerBatch)),
    };
    console.log(JSON.stringify(results, null, 2));
    writeResult('batches', results);
  } finally {
    await pool.end();
    await env.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
