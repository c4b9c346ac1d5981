import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createBusiness } from '../../lib/admin/businesses';
import { createDb } from '../../lib/db/client';
import { ServiceError } from '../../lib/errors';
import { voidHold } from '../../lib/holds/void-hold';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { openBenchEnv, writeResult } from '../bench-env';
import { fundedCard } from '../seed-cards';
import { ensureWrk } from '../payouts/http-load';

/**
 * Holds over HTTP with wrk: a till's two steps (place a hold, capture it)
 * against the one-step redemption and GET /api/health on the same server.
 * Prints requests per second, latency, the ratios, and checks the ledger and
 * that every hold ended once.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CARDS = 200;
const CONNECTIONS = 8;
const SCRIPT = path.join(import.meta.dirname, 'wrk-holds.lua');
const ACTOR = { type: 'system', id: 'bench' } as const;
const fmt = (n: number) => (n >= 100 ? Math.round(n).toString() : n.toFixed(2));

ensureWrk();
const env = await openBenchEnv({ server: true });
const { db, pool } = createDb(env.databaseUrl, 4);
try {
  const biz = await createBusiness(db, { name: `bench-holds-${Date.now()}` });
  const numbers: string[] = [];
  for (let i = 0; i < CARDS; i++) numbers.push(await fundedCard(db, biz.id, 1_000_000_000));
  const cardsFile = path.join(os.tmpdir(), `bench-holds-cards-${process.pid}.txt`);
  fs.writeFileSync(cardsFile, `${numbers.join('\n')}\n`);
  const key = biz.api_keys.test as string;

  const wrk = (mode: string) => {
    const run = spawnSync(
      'wrk',
      ['-t', '2', '-c', String(CONNECTIONS), '-d', `${SECONDS}s`, '--latency', '-s', SCRIPT, env.server!.baseUrl, '--', mode, cardsFile, key],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}${run.stdout}`);
    const out = run.stdout;
    const ms = (p: string) => {
      const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(out)!;
      return Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[m[2]];
    };
    const result = {
      perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]),
      p50: ms('50'),
      p99: ms('99'),
      non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    };
    console.log(`${mode}: ${fmt(result.perSecond)} requests/s, p50 ${fmt(result.p50)} ms, p99 ${fmt(result.p99)} ms, non-2xx ${result.non2xx}`);
    return result;
  };

  wrk('health');
  const health = wrk('health');
  const redeem = wrk('redeem');
  const holds = wrk('hold-capture');
  // Two requests make one till sale with a hold; one with a redemption.
  console.log(
    `sales per second: redemption ${fmt(redeem.perSecond)}, hold + capture ${fmt(holds.perSecond / 2)}; ratio ${fmt(holds.perSecond / 2 / redeem.perSecond)}; requests per health request: redemption ${fmt(redeem.perSecond / health.perSecond)}, hold or capture ${fmt(holds.perSecond / health.perSecond)}`,
  );

  const open = await db.execute<{ reference: string }>(sql`SELECT reference FROM holds WHERE business_id = ${biz.id} AND status = 'open'`);
  for (const h of open.rows) {
    // A capture wrk sent just before it stopped may still win: that hold is already ended, once.
    await voidHold(db, { businessId: biz.id, mode: 'test', actor: ACTOR, reference: h.reference }).catch((err) => {
      if (!(err instanceof ServiceError && err.code === 'hold_captured')) throw err;
    });
  }
  const ends = await db.execute<{ outcome: string; n: number; twice: number }>(sql`
    SELECT h.outcome, count(*)::int AS n,
           count(*) FILTER (WHERE (SELECT count(*) FROM ledger_transactions t WHERE t.reference = h.reference AND t.kind = 'hold_release') <> 1)::int AS twice
    FROM holds h WHERE h.business_id = ${biz.id} GROUP BY h.outcome ORDER BY h.outcome`);
  console.log(
    `holds: ${ends.rows.map((r) => `${r.outcome} ${r.n} (released other than once: ${r.twice})`).join(', ')}; ${open.rows.length} left held at the end, voided`,
  );
  const ledger = await verifyLedger(db);
  writeResult('holds', {
    seconds: SECONDS,
    connections: CONNECTIONS,
    health_per_second: health.perSecond,
    redemptions_per_second: redeem.perSecond,
    hold_or_capture_requests_per_second: holds.perSecond,
    sales_ratio_hold_capture_to_redemption: holds.perSecond / 2 / redeem.perSecond,
    p99_ms: { redeem: redeem.p99, hold_capture: holds.p99 },
    ledger_clean: ledger.ok,
  });
  console.log(`verifyLedger: ${ledger.ok ? 'clean' : ledger.problems.join('; ')}`);
  if (!ledger.ok || ends.rows.some((r) => r.twice > 0) || redeem.non2xx + holds.non2xx > 0) process.exitCode = 1;
  fs.rmSync(cardsFile, { force: true });
} finally {
  await pool.end();
  await env.close();
}
