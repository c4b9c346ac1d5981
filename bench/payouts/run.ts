import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import nodeHttp from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createBusiness } from '../../lib/admin/businesses';
import { createDb, type Db } from '../../lib/db/client';
import { ServiceError } from '../../lib/errors';
import { newCardNumber } from '../../lib/ids';
import { clearingAccountId } from '../../lib/ledger/accounts';
import { postTransaction } from '../../lib/ledger/post-transaction';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { createPayout } from '../../lib/payouts/create-payout';
import { ensureProductionBuild, startTestServer, type TestServer } from '../../tests/test-server';
import { cpuProfileEnv, deliveriesDrained, fmt, openBenchEnv, percentile, timeCalls, writeResult } from '../bench-env';
import { registerWebhookEndpoint } from '../../lib/webhooks/endpoints';
import { startHistoryTotalsFolding } from '../../lib/dashboard/history-totals-fold';
import { cpuWindow, ensureWrk, type MachineCpu, machineCpuWindow, runWrk } from './http-load';
import { pgbenchPayoutScript } from './pgbench-payout-script';

/**
 * Card-to-card payouts against pgbench TPC-B on the same PostgreSQL server in
 * one run: through the core (8 connections), through HTTP (8 clients), out of
 * one hot card, and GET /card/payouts pages 1 and 60 at 1,000 and 1,000,000
 * payouts. Prefers the machine's PostgreSQL at 127.0.0.1:5432 when it answers
 * (fresh databases on it), else DATABASE_URL, else an embedded server.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
// Each timed run, pgbench's too, follows a CHECKPOINT and an untimed warm-up of the same work (ours then an ANALYZE).
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CARDS = 10_000;
const BIG = Number(process.env.BENCH_PAYOUTS ?? 1_000_000);
const SMALL = 1_000;
const LIST_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const PGBENCH_SCALE = Number(process.env.PGBENCH_SCALE ?? 10);
// pgbench and the core take turns this many times: the shared machine's speed drifts by a third within minutes (one run gave rounds of 0.55, 0.94 and 0.60).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432';
// BENCH_DATABASE_SUFFIX: several checkouts benching on one PostgreSQL server each drop and make their own databases.
const DATABASE_SUFFIX = (process.env.BENCH_DATABASE_SUFFIX ?? '').replace(/[^a-z0-9_]/g, '');
// BENCH_PAYOUTS_ONLY=http-single: only the one-instance payouts and health runs.
const HTTP_SINGLE = process.env.BENCH_PAYOUTS_ONLY === 'http-single';
const HTTP_ONLY = process.env.BENCH_PAYOUTS_ONLY === 'http' || HTTP_SINGLE;
// BENCH_PAYOUTS_ONLY=core stops after pgbench and the core's rounds.
const CORE_ONLY = process.env.BENCH_PAYOUTS_ONLY === 'core';
// The HTTP runs pay among this many of the seeded cards, as the issue's figures did.
const HTTP_CARDS = 1_000;
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 2);
const HTTP_PAIRS = Number(process.env.BENCH_HTTP_PAIRS ?? 3);
// BENCH_OBSERVABILITY=compare: the HTTP pairs run on a server with request logs and metrics on and on one with both off,
// alternated, and the bench prints the ratio of their payouts per health request (the cost of observing, issue 33).
const OBSERVABILITY_COMPARE = process.env.BENCH_OBSERVABILITY === 'compare';
const OBSERVED_ENV = { LOG_LEVEL: 'info', METRICS_TOKEN: 'bench-metrics-token' };
const UNOBSERVED_ENV = { LOG_LEVEL: 'silent' };
const serverEnv = cpuProfileEnv();
const ACTOR = { type: 'system', id: 'bench' } as const;
// Servers write their log lines to files: this process blocks in spawnSync while wrk runs and would read no pipe meanwhile.
const SERVER_LOGS = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-payouts-logs-'));
let serverLogs = 0;
const serverLogFile = () => path.join(SERVER_LOGS, `server-${++serverLogs}.log`);

async function localServerUp(): Promise<boolean> {
  const c = new pg.Client({ connectionString: `${LOCAL_PG}/postgres`, connectionTimeoutMillis: 2_000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const c = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  return `${serverUrl}/${name}`;
}

function pgbenchConnection(url: string) {
  const u = new URL(url);
  return {
    env: { ...process.env, PGPASSWORD: decodeURIComponent(u.password) },
    args: ['-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username), u.pathname.slice(1)],
  };
}

const cpuText = (c: MachineCpu) => `${fmt(c.cpuMsPerTransaction)} ms of machine CPU each, ${Math.round(c.idleShare * 100)}% idle`;

/**
 * A CHECKPOINT, an untimed warm-up, then SECONDS of pgbench -c 8 -j 2 with
 * `script` (TPC-B when none); answers tps, the transactions of both runs and
 * the machine's CPU over the timed one.
 */
function pgbench(url: string, script: string[] = []): { tps: number; transactions: number; cpu: MachineCpu } {
  const { env, args } = pgbenchConnection(url);
  spawnSync('psql', [...args, '-c', 'CHECKPOINT'], { env });
  const runs = [WARMUP_SECONDS, SECONDS].map((seconds) => {
    const machine = machineCpuWindow();
    const run = spawnSync('pgbench', ['-n', '-c', '8', '-j', '2', '-T', String(seconds), ...script, ...args], { env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`pgbench failed: ${run.stderr}`);
    if (/number of failed transactions: [1-9]/.test(run.stdout)) throw new Error(`pgbench transactions failed:\n${run.stdout}`);
    const tps = /tps = ([\d.]+)/.exec(run.stdout);
    const processed = /number of transactions actually processed: (\d+)/.exec(run.stdout);
    if (!tps || !processed) throw new Error(`no tps in pgbench output:\n${run.stdout}`);
    const transactions = Number(processed[1]);
    return { tps: Number(tps[1]), transactions, cpu: machine.stop(transactions) };
  });
  return { tps: runs[1].tps, transactions: runs[0].transactions + runs[1].transactions, cpu: runs[1].cpu };
}

function initPgbench(url: string): void {
  const { env, args } = pgbenchConnection(url);
  const init = spawnSync('pgbench', ['-i', '-q', '-s', String(PGBENCH_SCALE), ...args], { env, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`pgbench -i failed: ${init.stderr}`);
}

const median = (xs: number[]) => percentile(xs, 50);

/** 10,000 funded cards for one business, seeded in bulk with one balanced funding transaction. */
async function seedCards(db: Db, businessId: number, count: number, eachBalance: number): Promise<string[]> {
  const numbers = Array.from({ length: count }, () => newCardNumber());
  const tag = randomUUID().slice(0, 8);
  await db.execute(sql`
    WITH input AS (SELECT * FROM unnest(${`{${numbers.join(',')}}`}::text[]) WITH ORDINALITY AS t(card_number, ord)),
    cu AS (
      INSERT INTO customers (mode, phone_number, national_number)
      SELECT 'test', '+2519' || lpad(ord::text, 8, '0') || '-' || ${tag}, '9' || lpad(ord::text, 8, '0') FROM input
      RETURNING id, phone_number),
    named AS (
      INSERT INTO customer_names (business_id, customer_id, first_name, last_name)
      SELECT ${businessId}, id, 'Bench', 'Holder' FROM cu),
    acc AS (
      INSERT INTO ledger_accounts (kind, name, business_id, mode, currency)
      SELECT 'card', 'card:' || card_number, ${businessId}, 'test', 'ETB' FROM input RETURNING id, name)
    INSERT INTO cards (ref_id, business_id, mode, customer_id, card_number, currency, account_id)
    SELECT gen_random_uuid()::text, ${businessId}, 'test', cu.id, i.card_number, 'ETB', acc.id
    FROM input i JOIN acc ON acc.name = 'card:' || i.card_number
    JOIN cu ON cu.phone_number = '+2519' || lpad(i.ord::text, 8, '0') || '-' || ${tag}`);
  const deposits = await clearingAccountId(db, 'deposits', 'test', 'ETB');
  const ids = await db.execute<{ id: number }>(sql`SELECT account_id AS id FROM cards WHERE business_id = ${businessId} ORDER BY id`);
  for (let i = 0; i < ids.rows.length; i += 1_000) {
    const chunk = ids.rows.slice(i, i + 1_000).map((r) => Number(r.id));
    await db.transaction((tx) =>
      postTransaction(tx, {
        mode: 'test',
        kind: 'bench_funding',
        businessId,
        actor: ACTOR,
        postings: [{ accountId: deposits, amount: -eachBalance * chunk.length }, ...chunk.map((accountId) => ({ accountId, amount: eachBalance }))],
      }),
    );
  }
  // As pgbench -i does for its tables: no dead rows or unset hint bits left for the timed runs to clean up.
  await db.execute(sql`VACUUM ANALYZE`);
  return numbers;
}

/** Runs `clients` loops for SECONDS (after `started`); answers completed calls, per second, and the failures seen. */
async function throughput(db: Db, clients: number, call: () => Promise<void>, started?: () => Promise<void>) {
  await db.execute(sql`CHECKPOINT`);
  const warmUntil = Date.now() + WARMUP_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < warmUntil) await call().catch(() => {});
    }),
  );
  // Statistics as a running service has them. Tables analyzed while nearly empty make PostgreSQL plan
  // foreign key checks as whole-table scans, kept until autovacuum's next ANALYZE, a minute or more away.
  await db.execute(sql`ANALYZE`);
  await started?.();
  const deadline = Date.now() + SECONDS * 1000;
  let done = 0;
  const failures = new Map<string, number>();
  const machine = machineCpuWindow();
  const from = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < deadline) {
        try {
          await call();
          done++;
        } catch (err) {
          const k = err instanceof Error ? err.message.slice(0, 80) : String(err);
          failures.set(k, (failures.get(k) ?? 0) + 1);
        }
      }
    }),
  );
  const perSecond = done / ((performance.now() - from) / 1000);
  return { done, perSecond, cpu: machine.stop(done), failures: Object.fromEntries(failures) };
}

async function pendingDeliveries(db: Db): Promise<number> {
  const r = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'pending'`);
  return r.rows[0].n;
}

/** Waits until no webhook delivery is pending (at most five minutes); answers the seconds it took. */
const drain = (db: Db) => deliveriesDrained(db, { timeoutMs: 300_000 });

/** The business's own webhook receiver for the multi-instance run: answers 200 and counts each webhook-id it sees. */
async function startReceiver(): Promise<{ url: string; seen: Map<string, number>; close(): Promise<void> }> {
  const seen = new Map<string, number>();
  const server = nodeHttp.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hooks`, seen, close: () => new Promise((r) => server.close(() => r())) };
}

/**
 * After the multi-instance run: every event since `firstEvent` delivered to each
 * of its endpoints, with one successful attempt each, received once by the
 * dashboard's route and once by the business's receiver. Throws otherwise.
 */
async function deliveredOnce(db: Db, firstEvent: number, businessSeen: Map<string, number>): Promise<string> {
  const { rows } = await db.execute<{ events: number; deliveries: number; undelivered: number; twice: number; received: number; kinds: number }>(sql`
    SELECT (SELECT count(*)::int FROM webhook_events WHERE id > ${firstEvent}) AS events,
           count(*)::int AS deliveries,
           count(*) FILTER (WHERE d.state <> 'delivered')::int AS undelivered,
           count(*) FILTER (WHERE (SELECT count(*) FROM webhook_attempts a WHERE a.delivery_id = d.id AND a.error IS NULL) <> 1)::int AS twice,
           (SELECT count(*)::int FROM received_webhooks r JOIN webhook_events e ON e.event_id = r.webhook_id WHERE e.id > ${firstEvent}) AS received,
           count(DISTINCT w.kind)::int AS kinds
    FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.event_id > ${firstEvent}`);
  const r = rows[0];
  const events = await db.execute<{ event_id: string }>(sql`SELECT event_id FROM webhook_events WHERE id > ${firstEvent}`);
  const businessOnce = events.rows.filter((e) => businessSeen.get(e.event_id) === 1).length;
  const summary = `${r.events} events, ${r.deliveries} deliveries (${r.kinds} endpoint kinds), ${r.undelivered} undelivered, ${r.twice} not delivered exactly once, dashboard received ${r.received}, business receiver got ${businessOnce} exactly once`;
  if (r.deliveries !== r.events * 2 || r.undelivered || r.twice || r.received !== r.events || businessOnce !== r.events) {
    throw new Error(`delivery was not exactly once per endpoint: ${summary}`);
  }
  return summary;
}

const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];

async function main() {
  const local = !process.env.DATABASE_URL && (await localServerUp());
  let pgbenchUrl: string;
  if (local) {
    process.env.DATABASE_URL = await freshDatabase(LOCAL_PG, `bench_payouts${DATABASE_SUFFIX}`);
    pgbenchUrl = await freshDatabase(LOCAL_PG, `bench_payouts_pgbench${DATABASE_SUFFIX}`);
  }
  // The server starts after the core phases: its background workers would otherwise compete with the core for the CPU.
  const env = await openBenchEnv({ server: false });
  if (!local) {
    const u = new URL(env.databaseUrl);
    pgbenchUrl = await freshDatabase(`${u.protocol}//${u.username}:${u.password}@${u.host}`, `bench_payouts_pgbench${DATABASE_SUFFIX}`);
  }
  const label = local ? 'the machine PostgreSQL 15 at 127.0.0.1:5432' : env.databaseLabel;
  console.log(`database: ${label} (pgbench and our ledger on the same server); ${SECONDS} s per run`);
  const { db, pool } = createDb(env.databaseUrl, 8);
  const results: Record<string, unknown> = { database: label, seconds: SECONDS };
  let server: TestServer | undefined;
  const servers: TestServer[] = [];
  const cardsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-payouts-cards-')), 'cards.txt');
  try {
    ensureWrk();
    initPgbench(pgbenchUrl!);

    const biz = await createBusiness(db, { name: 'bench' });
    const cards = await seedCards(db, biz.id, CARDS, 1_000_000_000);
    const c2c = (from: string, to: string) =>
      createPayout(db, { businessId: biz.id, mode: 'test', actor: ACTOR, input: { card_number: from, destination_card_number: to, amount: 100 } }).then(
        () => {},
      );
    const distinctPair = () => {
      const from = pick(cards);
      let to = pick(cards);
      while (to === from) to = pick(cards);
      return [from, to] as const;
    };

    // Statements the core sends, counted at the pool: one per payout when both cards are remembered.
    let statements = 0;
    const poolQuery = pool.query.bind(pool);
    pool.query = ((...args: Parameters<typeof poolQuery>) => {
      statements++;
      return poolQuery(...args);
    }) as typeof pool.query;
    // The list totals' fold runs beside the core as it runs beside a server: its share of the work is in the core's figure.
    const stopFolding = startHistoryTotalsFolding(db);
    // A running service has its cards in memory: one untimed payout out of each card first, so the first round is not a
    // round of card reads (it was: 1.3 statements per payout against 1.01 after).
    for (let i = 0; i < (HTTP_ONLY ? 0 : cards.length); i += 8) {
      await Promise.all(cards.slice(i, i + 8).map((from, j) => c2c(from, cards[(i + j + 1) % cards.length])));
    }
    const rounds: { tps: number; core: number; statementsPerPayout: number; tpcbCpu: MachineCpu; coreCpu: MachineCpu }[] = [];
    for (let round = 1; round <= (HTTP_ONLY ? 0 : ROUNDS); round++) {
      const { tps, cpu: tpcbCpu } = pgbench(pgbenchUrl!);
      let before = 0;
      const run = await throughput(
        db,
        8,
        () => c2c(...distinctPair()),
        async () => {
          before = statements;
        },
      );
      const statementsPerPayout = (statements - before) / run.done;
      rounds.push({ tps, core: run.perSecond, statementsPerPayout, tpcbCpu, coreCpu: run.cpu });
      console.log(
        `round ${round}: pgbench -c 8 -j 2 TPC-B (scale ${PGBENCH_SCALE}) ${fmt(tps)} tps (${cpuText(tpcbCpu)}); core card-to-card, 8 connections, uniform over ${CARDS} cards, ${fmt(run.perSecond)}/s (${cpuText(run.cpu)}); ratio ${fmt(run.perSecond / tps)}; ${fmt(statementsPerPayout)} statements per payout`,
        run.failures,
      );
    }
    const tps = HTTP_ONLY ? pgbench(pgbenchUrl!).tps : median(rounds.map((r) => r.tps));
    const core = { perSecond: median(rounds.map((r) => r.core)), ratio: median(rounds.map((r) => r.core / r.tps)) };
    if (HTTP_ONLY) console.log(`pgbench TPC-B ${fmt(tps)} tps (one run)`);
    else
      console.log(
        `pgbench TPC-B median ${fmt(tps)} tps; core median ${fmt(core.perSecond)}/s; core ratio, median of ${ROUNDS} rounds: ${fmt(core.ratio)} (target >= 0.7)`,
      );
    // With the cores busy under both, the throughput ratio is near the inverse of this one; with TPC-B waiting on its
    // commits (cores idle), TPC-B's CPU per transaction says less and the core's ratio runs above that inverse.
    const cpuPerTpcb = median(rounds.map((r) => r.coreCpu.cpuMsPerTransaction / r.tpcbCpu.cpuMsPerTransaction));
    if (!HTTP_ONLY) console.log(`machine CPU per core payout over per TPC-B transaction, median of ${ROUNDS} rounds: ${fmt(cpuPerTpcb)}`);

    if (CORE_ONLY) return await stopFolding();
    const lastEvent = async () => Number((await db.execute<{ id: number }>(sql`SELECT coalesce(max(id), 0) AS id FROM webhook_events`)).rows[0].id);
    // BENCH_PAYOUTS_ONLY=http skips the core's hot card and statement runs (and the lists): for quick HTTP measurements.
    const extras = HTTP_ONLY
      ? undefined
      : await (async () => {
          const hot = cards[0];
          const others = cards.slice(1);
          const deposits = await clearingAccountId(db, 'deposits', 'test', 'ETB');
          const hotAccount = Number((await db.execute<{ id: number }>(sql`SELECT account_id AS id FROM cards WHERE card_number = ${hot}`)).rows[0].id);
          const refill = () =>
            db.transaction((tx) =>
              postTransaction(tx, {
                mode: 'test',
                kind: 'bench_funding',
                businessId: biz.id,
                actor: ACTOR,
                postings: [
                  { accountId: deposits, amount: -1_000_000_000 },
                  { accountId: hotAccount, amount: 1_000_000_000 },
                ],
              }),
            );
          const hotRun = await throughput(db, 8, async () => {
            try {
              await c2c(hot, pick(others));
            } catch (err) {
              if (!(err instanceof ServiceError && err.code === 'insufficient_balance')) throw err;
              await refill();
            }
          });
          console.log(
            `hot card, 8 connections paying out of one card: ${fmt(hotRun.perSecond)}/s, ratio to uniform ${fmt(hotRun.perSecond / core.perSecond)} (target >= 0.3)`,
            hotRun.failures,
          );

          // The same payouts by the statement alone, sent by pgbench's C client: what PostgreSQL allows before any Node.js work.
          const range = (await db.execute<{ lo: number; hi: number }>(sql`SELECT min(id) AS lo, max(id) AS hi FROM cards WHERE business_id = ${biz.id}`))
            .rows[0];
          const eventsBefore = await lastEvent();
          const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-payouts-')), 'payout-statement.sql');
          fs.writeFileSync(script, pgbenchPayoutScript());
          const statementRun = pgbench(env.databaseUrl, [
            '-M',
            'prepared',
            '-D',
            `biz=${biz.id}`,
            '-D',
            `lo=${range.lo}`,
            '-D',
            `hi=${range.hi}`,
            '-f',
            script,
          ]);
          fs.rmSync(path.dirname(script), { recursive: true });
          const { tps: statementTps, cpu: statementCpu } = statementRun;
          // A refused statement is no error to pgbench: every transaction it ran must have written its payout and event.
          const written = await db.execute<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM webhook_events WHERE id > ${eventsBefore} AND business_id = ${biz.id} AND subject_reference ~ '^c2c_[0-9]+_[0-9]+$'`);
          if (written.rows[0].n !== statementRun.transactions) {
            throw new Error(`pgbench ran ${statementRun.transactions} payout statements but ${written.rows[0].n} wrote their payout`);
          }
          // Its events only stand in for real ones: nobody waits for them, and delivering them would only lengthen the drain.
          await db.execute(
            sql`UPDATE webhook_deliveries SET state = 'failed' WHERE state = 'pending' AND event_id > ${eventsBefore} AND event_id <= ${await lastEvent()}`,
          );
          console.log(
            `the payout statement alone through pgbench (no Node.js): ${fmt(statementTps)} tps (${cpuText(statementCpu)}), ratio to TPC-B ${fmt(statementTps / tps)}; the core reaches ${fmt(core.perSecond / statementTps)} of it`,
          );
          return { hotRun, statementTps, statementCpu };
        })();

    // Start the server, then let it deliver the webhook events the core phases wrote before timing HTTP.
    await stopFolding();
    ensureProductionBuild();
    server = await startTestServer({
      databaseUrl: env.databaseUrl,
      adminToken: env.adminToken,
      stdoutFile: serverLogFile(),
      env: { ...serverEnv, ...OBSERVED_ENV },
    });
    const backlog = await pendingDeliveries(db);
    const drainSeconds = await drain(db);
    console.log(`webhook backlog of ${backlog} deliveries drained in ${fmt(drainSeconds)} s (${fmt(backlog / drainSeconds)}/s)`);
    results.webhook_backlog = backlog;
    results.webhook_drain_per_second = backlog / drainSeconds;

    const base = server.baseUrl;
    const httpCards = cards.slice(0, HTTP_CARDS);
    fs.writeFileSync(cardsFile, `${httpCards.join('\n')}\n`);
    const key = biz.api_keys.test as string;
    servers.push(server);

    const refused: string[] = [];
    /** A timed wrk run with the CPU the servers and PostgreSQL spent on it, until every webhook delivery it caused is done. */
    const measured = async (label: string, payouts: boolean, instances?: TestServer[]) => {
      const on = instances ?? [server!];
      const wrkOpts = {
        baseUrl: on[0].baseUrl,
        connections: 8,
        threads: on.length > 1 ? on.length : 2,
        instances: on.length > 1 ? on.map((s) => `127.0.0.1:${s.port}`) : undefined,
        payouts: payouts ? { cardsFile, apiKey: key } : undefined,
      };
      runWrk({ ...wrkOpts, seconds: WARMUP_SECONDS });
      await drain(db);
      await db.execute(sql`ANALYZE`);
      const cpu = await cpuWindow(
        on.map((s) => s.process.pid!),
        env.databaseUrl,
      );
      const run = runWrk({ ...wrkOpts, seconds: SECONDS });
      const left = await pendingDeliveries(db);
      const drainSeconds = await drain(db);
      const spent = await cpu.stop();
      const per = (ms: number) => ms / run.requests;
      console.log(
        `${label}: ${fmt(run.perSecond)}/s, p50 ${fmt(run.p50Ms)} ms, p99 ${fmt(run.p99Ms)} ms, non-2xx ${run.non2xx}; CPU ms per request: server ${fmt(per(spent.serverMs))}, PostgreSQL ${fmt(per(spent.postgresMs))}` +
          (payouts ? `; ${left} deliveries pending at the end, drained in ${fmt(drainSeconds)} s` : ''),
      );
      // The run goes on so every figure is printed, and fails at the end.
      if (run.non2xx > 0 || run.socketErrors) refused.push(`${label}: ${run.non2xx} non-2xx answers, socket errors ${run.socketErrors ?? 'none'}`);
      return { ...run, serverCpuMs: per(spent.serverMs), postgresCpuMs: per(spent.postgresMs), pendingAtEnd: left, drainSeconds };
    };

    // Payouts, then Next.js's own ceiling on this machine (a route that only runs SELECT 1) on the same server, in
    // HTTP_PAIRS alternated pairs: the shared machine's speed drifts between runs, so the figure is the median pair's.
    const pairs: { http: Awaited<ReturnType<typeof measured>>; health: Awaited<ReturnType<typeof measured>>; ratio: number }[] = [];
    // With BENCH_OBSERVABILITY=compare, each pair is followed by the same pair on a server with logs and metrics off.
    const unobserved = OBSERVABILITY_COMPARE
      ? await startTestServer({
          databaseUrl: env.databaseUrl,
          adminToken: env.adminToken,
          stdoutFile: serverLogFile(),
          env: { ...serverEnv, ...UNOBSERVED_ENV },
        })
      : undefined;
    const unobservedRatios: number[] = [];
    const unobservedCpu: { payout: number; health: number }[] = [];
    for (let pair = 1; pair <= HTTP_PAIRS; pair++) {
      const observedPair = async () => {
        const http = await measured(`pair ${pair}: HTTP card-to-card (wrk, 8 connections)`, true);
        const health = await measured(`pair ${pair}: GET /api/health (one SELECT 1), wrk, 8 connections`, false);
        pairs.push({ http, health, ratio: http.perSecond / health.perSecond });
        console.log(`pair ${pair}: payouts per health request ${fmt(pairs[pairs.length - 1].ratio)}`);
      };
      const unobservedPair = async (off: TestServer) => {
        const offHttp = await measured(`pair ${pair}, logs and metrics off: HTTP card-to-card`, true, [off]);
        const offHealth = await measured(`pair ${pair}, logs and metrics off: GET /api/health`, false, [off]);
        unobservedRatios.push(offHttp.perSecond / offHealth.perSecond);
        unobservedCpu.push({ payout: offHttp.serverCpuMs, health: offHealth.serverCpuMs });
        console.log(`pair ${pair}: payouts per health request with logs and metrics off ${fmt(unobservedRatios[pair - 1])}`);
      };
      // On then off in odd pairs, off then on in even ones: neither always runs on the warmer or the quieter machine.
      if (unobserved && pair % 2 === 0) await unobservedPair(unobserved);
      await observedPair();
      if (unobserved && pair % 2 === 1) await unobservedPair(unobserved);
    }
    const { http, health, ratio } = [...pairs].sort((a, b) => a.ratio - b.ratio)[Math.floor((pairs.length - 1) / 2)];
    console.log(
      `payouts per health request, median of ${pairs.length} pairs: ${fmt(ratio)} (pairs ${pairs.map((p) => fmt(p.ratio)).join(', ')}; target >= 0.5); HTTP payouts to pgbench ${fmt(http.perSecond / tps)}, health to pgbench ${fmt(health.perSecond / tps)}`,
    );
    if (unobserved) {
      const ratios = pairs.map((p, i) => p.ratio / unobservedRatios[i]);
      const median = [...ratios].sort((a, b) => a - b)[Math.floor((ratios.length - 1) / 2)];
      console.log(
        `observability: payouts per health request with logs and metrics on over off, median of ${ratios.length} pairs: ${fmt(median)} (pairs ${ratios.map(fmt).join(', ')}; cost ${fmt((1 - median) * 100)}%, target under 10%)`,
      );
      // The server's own CPU per request moves less with the other processes on the machine than its throughput does.
      const cpuRatios = (kind: 'http' | 'health') =>
        pairs.map((p, i) => p[kind].serverCpuMs / unobservedCpu[i][kind === 'http' ? 'payout' : 'health']).sort((a, b) => a - b);
      const cpuPayout = cpuRatios('http');
      const cpuHealth = cpuRatios('health');
      const mid = (xs: number[]) => xs[Math.floor((xs.length - 1) / 2)];
      console.log(
        `observability: server CPU per request with logs and metrics on over off, median of ${ratios.length} pairs: payouts ${fmt(mid(cpuPayout))} (${cpuPayout.map(fmt).join(', ')}), health ${fmt(mid(cpuHealth))} (${cpuHealth.map(fmt).join(', ')})`,
      );
      results.observability = {
        on_per_health: pairs.map((p) => p.ratio),
        off_per_health: unobservedRatios,
        on_over_off: ratios,
        median_on_over_off: median,
        server_cpu_on_over_off: { payouts: mid(cpuPayout), health: mid(cpuHealth) },
      };
      await unobserved.stop();
    }
    // Payout lists: one business with 1,000 payouts and one with 1,000,000, written in bulk.
    const listBusiness = async (name: string, n: number) => {
      const b = await createBusiness(db, { name });
      const t = performance.now();
      for (let done = 0; done < n; done += 250_000) {
        const chunk = Math.min(250_000, n - done);
        await db.execute(sql`
          INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference,
                               source_card_number, destination_card_number, actor_type, created_at, updated_at, completed_at)
          SELECT ${b.id}, 'test', 'card_to_card', 'success', 'ETB', 100 + g % 1000, 0, 'sender', ${`bench${b.id}_`} || g,
                 '4000000000000002', '4000000000000010', 'system', now() - (g || ' seconds')::interval, now(), now()
          FROM generate_series(${done + 1}::int, ${done + chunk}::int) g`);
      }
      await db.execute(sql`INSERT INTO list_counters (business_id, mode, kind, shard, count) VALUES (${b.id}, 'test', 'payouts', 0, ${n})`);
      console.log(`  seeded ${n} payouts in ${fmt((performance.now() - t) / 1000)} s`);
      return b;
    };
    const [small, big] = HTTP_ONLY ? [] : [await listBusiness('bench-small-list', SMALL), await listBusiness('bench-big-list', BIG)];
    await db.execute(sql`ANALYZE payouts`);
    const p95 = async (key: string, page: number) => {
      const samples = await timeCalls(LIST_REQUESTS, 4, async () => {
        const res = await fetch(`${base}/api/v1/card/payouts?page=${page}&limit=15`, { headers: { authorization: `Bearer ${key}` } });
        if (res.status !== 200) throw new Error(`list answered ${res.status}`);
        const body = await res.json();
        if (body.data.items.length !== 15) throw new Error('short page');
      });
      return percentile(samples, 95);
    };
    const lists: Record<string, number> = {};
    for (const page of HTTP_ONLY ? [] : [1, 60]) {
      lists[`small_p${page}`] = await p95(small!.api_keys.test, page);
      lists[`big_p${page}`] = await p95(big!.api_keys.test, page);
      console.log(
        `GET /card/payouts page ${page} (limit 15), p95: ${fmt(lists[`small_p${page}`])} ms at ${SMALL} payouts, ${fmt(lists[`big_p${page}`])} ms at ${BIG}; ratio ${fmt(lists[`big_p${page}`] / lists[`small_p${page}`])} (target <= 2)`,
      );
    }

    if (HTTP_SINGLE) {
      writeResult('payouts-http-single', {
        observability: results.observability,
        http_per_second: http.perSecond,
        health_per_second: health.perSecond,
        payouts_per_health_pairs: pairs.map((p) => p.ratio),
        http,
        health,
      });
      return;
    }
    // Several instances on the one PostgreSQL, wrk's threads spread over them round robin, with the business's own
    // endpoint registered too: every event must reach each endpoint exactly once, whichever instance claimed it.
    const receiver = await startReceiver();
    await registerWebhookEndpoint(db, biz.id, { mode: 'test', url: receiver.url });
    for (let i = 1; i < INSTANCES; i++)
      servers.push(await startTestServer({ databaseUrl: env.databaseUrl, adminToken: env.adminToken, stdoutFile: serverLogFile(), env: serverEnv }));
    const firstEvent = await lastEvent();
    const multiHealth = await measured(`GET /api/health on ${INSTANCES} instances`, false, servers);
    const multi = await measured(`HTTP card-to-card on ${INSTANCES} instances, dashboard and business endpoints`, true, servers);
    const delivery = await deliveredOnce(db, firstEvent, receiver.seen);
    console.log(
      `${INSTANCES} instances: payouts ${fmt(multi.perSecond)}/s, health ${fmt(multiHealth.perSecond)}/s, ratio ${fmt(multi.perSecond / multiHealth.perSecond)}; ${delivery}`,
    );
    await receiver.close();

    // The share of the webhooks: the same HTTP payouts with the business's endpoints disabled, so no event is delivered.
    await db.execute(sql`UPDATE webhook_endpoints SET disabled_at = now() WHERE business_id = ${biz.id}`);
    const httpNoHooks = await measured('HTTP card-to-card with every webhook endpoint disabled', true);

    const ledger = await verifyLedger(db);
    console.log(`verifyLedger: ${ledger.ok ? 'clean' : ledger.problems.join('; ')} (${ledger.transactions} transactions)`);
    Object.assign(results, {
      rounds: Object.fromEntries(
        rounds.map((r, i) => [
          `round_${i + 1}`,
          {
            pgbench_tps: r.tps,
            core_per_second: r.core,
            ratio: r.core / r.tps,
            statements_per_payout: r.statementsPerPayout,
            pgbench_cpu_ms_per_transaction: r.tpcbCpu.cpuMsPerTransaction,
            pgbench_idle_share: r.tpcbCpu.idleShare,
            core_cpu_ms_per_payout: r.coreCpu.cpuMsPerTransaction,
            core_idle_share: r.coreCpu.idleShare,
          },
        ]),
      ),
      pgbench_tps: tps,
      core_per_second: core.perSecond,
      core_ratio: core.ratio,
      statement_alone_tps: extras?.statementTps,
      statement_alone_ratio: extras && extras.statementTps / tps,
      statement_alone_cpu_ms_per_transaction: extras?.statementCpu.cpuMsPerTransaction,
      core_cpu_per_tpcb_cpu: cpuPerTpcb,
      http_per_second: http.perSecond,
      http_ratio: http.perSecond / tps,
      http_p50_ms: http.p50Ms,
      http_p99_ms: http.p99Ms,
      http_server_cpu_ms_per_payout: http.serverCpuMs,
      http_postgres_cpu_ms_per_payout: http.postgresCpuMs,
      http_deliveries_pending_at_end: http.pendingAtEnd,
      http_without_webhooks_per_second: httpNoHooks.perSecond,
      http_without_webhooks_ratio: httpNoHooks.perSecond / tps,
      health_route_per_second: health.perSecond,
      health_route_ratio: health.perSecond / tps,
      health_p50_ms: health.p50Ms,
      health_p99_ms: health.p99Ms,
      health_server_cpu_ms_per_request: health.serverCpuMs,
      payouts_per_health_ratio: ratio,
      payouts_per_health_pairs: pairs.map((p) => p.ratio),
      instances: INSTANCES,
      multi_instance_per_second: multi.perSecond,
      multi_instance_health_per_second: multiHealth.perSecond,
      multi_instance_ratio: multi.perSecond / multiHealth.perSecond,
      multi_instance_delivery: delivery,
      hot_per_second: extras?.hotRun.perSecond,
      hot_ratio_to_uniform: extras && extras.hotRun.perSecond / core.perSecond,
      list_p95_ms: lists,
      ledger_clean: ledger.ok,
    });
    writeResult(HTTP_ONLY ? 'payouts-http' : 'payouts', { ...results, http_runs_refused: refused });
    if (refused.length) throw new Error(`answers other than 2xx:\n${refused.join('\n')}`);
  } finally {
    await pool.end();
    await Promise.all(servers.map((s) => s.stop()));
    await env.close();
    fs.rmSync(SERVER_LOGS, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
