import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScratchDatabase, startTestServer, type TestServer } from '../../tests/test-server';
import { PGBOUNCER, startPgBouncer } from '../../tests/pgbouncer-process';
import { fmt, openBenchEnv, writeResult } from '../bench-env';
import { ensureWrk, runWrk, type WrkResult } from '../payouts/http-load';

/**
 * Card-to-card payouts over HTTP (wrk) against the app on a direct pool, and
 * on the same pool size through Debian's PgBouncer in transaction mode with
 * DATABASE_POOLER=transaction (statements unnamed: parsed and planned on every
 * call). What the pooler and the lost prepared statements cost per payout.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 16;
const CARDS = 100;

async function api(base: string, key: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function main() {
  if (!PGBOUNCER) throw new Error('no pgbouncer binary: apt-get install pgbouncer');
  ensureWrk();
  const env = await openBenchEnv({ server: false });
  const url = await createScratchDatabase(env.databaseUrl, 'bench_pooler');
  const bouncer = await startPgBouncer(url, 20);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pooler-'));
  const servers: TestServer[] = [];
  const results: Record<string, WrkResult> = {};
  try {
    const setups: [string, Record<string, string>, string][] = [
      ['direct', {}, url],
      // Unnamed statements without the pooler: which part of the cost is planning, which the extra hop.
      ['direct_unnamed', { DATABASE_POOLER: 'transaction' }, url],
      ['pgbouncer', { DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: url }, bouncer.url],
    ];
    for (const [label, extra, databaseUrl] of setups) {
      const server = await startTestServer({
        databaseUrl,
        adminToken: env.adminToken,
        env: { DB_POOL_SIZE: '20', RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000', ...extra },
      });
      servers.push(server);
      const biz = await api(server.baseUrl, env.adminToken, 'POST', '/api/admin/businesses', { name: `bench ${label}` });
      const key = (biz.api_keys as { test: string }).test;
      const cards: string[] = [];
      for (let i = 0; i < CARDS; i++) {
        const phone = `+2519${setups.findIndex(([l]) => l === label) + 1}${String(i).padStart(7, '0')}`;
        cards.push(
          (await api(server.baseUrl, key, 'POST', '/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Bench', last_name: 'Holder' }))
            .card_number as string,
        );
      }
      await api(server.baseUrl, env.adminToken, 'POST', `/api/admin/businesses/${biz.id}/balance`, {
        mode: 'test',
        currency: 'ETB',
        amount: CARDS * 10_000_000,
      });
      for (const card of cards) {
        const t = await api(server.baseUrl, key, 'POST', '/api/v1/transfers', {
          amount: 10_000_000,
          bank_slug: 'link',
          account_number: card,
          account_name: 'Top-up',
        });
        await api(server.baseUrl, key, 'POST', `/api/v1/test-helpers/payouts/${t.provider_reference}/settle`, { status: 'success' });
      }
      const cardsFile = path.join(dir, `${label}.txt`);
      fs.writeFileSync(cardsFile, `${cards.join('\n')}\n`);
      const wrk = { baseUrl: server.baseUrl, connections: CONNECTIONS, payouts: { cardsFile, apiKey: key } };
      runWrk({ ...wrk, seconds: 3 });
      const run = runWrk({ ...wrk, seconds: SECONDS });
      results[label] = run;
      console.log(`${label}: ${fmt(run.perSecond)} payouts/s, p50 ${fmt(run.p50Ms)} ms, p99 ${fmt(run.p99Ms)} ms, non-2xx ${run.non2xx}`);
      await server.stop();
    }
    const ratio = results.pgbouncer.perSecond / results.direct.perSecond;
    const unnamedRatio = results.direct_unnamed.perSecond / results.direct.perSecond;
    console.log(`unnamed statements, direct / named, direct: ${fmt(unnamedRatio)} of the throughput`);
    console.log(`through PgBouncer (transaction mode, unnamed statements) / direct: ${fmt(ratio)} of the throughput`);
    writeResult('pooler', { seconds: SECONDS, connections: CONNECTIONS, database: env.databaseLabel, ...results, ratio, unnamedRatio });
  } finally {
    for (const s of servers) await s.stop();
    await bouncer.stop();
    await env.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
