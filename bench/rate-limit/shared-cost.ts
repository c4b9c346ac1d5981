import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { startTestServer } from '../../tests/test-server';
import { ensureWrk } from '../payouts/http-load';

export interface LimitCost {
  store: string;
  per_second: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  non_2xx: number;
  /** Statements on rate_limit_buckets per 1000 requests. */
  bucket_writes_per_1000: number;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
const latency = (out: string, p: string) => {
  const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
  return m ? Number(m[1]) * UNIT_MS[m[2]] : Number.NaN;
};

async function bucketWrites(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT coalesce(sum(n_tup_ins + n_tup_upd), 0) AS n FROM pg_stat_user_tables WHERE relname = 'rate_limit_buckets'`,
    );
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

/**
 * What the fleet-wide API key limit costs one request: wrk reads GET
 * /api/v1/banks with one key for `seconds` against a server whose limit is
 * counted in memory (RATE_LIMIT_STORE=memory, one instance only: the figure
 * before), shared with the default lease, and shared with a lease of 1 (a
 * statement per request). The limit sits far above the load, so nothing is
 * refused and only the counting differs.
 */
export async function measureSharedLimitCost(o: { databaseUrl: string; adminToken: string; seconds: number; connections: number }): Promise<LimitCost[]> {
  ensureWrk();
  const variants: { store: string; env: Record<string, string> }[] = [
    { store: 'memory (before)', env: { RATE_LIMIT_STORE: 'memory' } },
    { store: 'shared, lease 100 (after)', env: { RATE_LIMIT_LEASE: '100' } },
    { store: 'shared, lease 1', env: { RATE_LIMIT_LEASE: '1' } },
  ];
  const results: LimitCost[] = [];
  for (const v of variants) {
    const server = await startTestServer({
      databaseUrl: o.databaseUrl,
      adminToken: o.adminToken,
      env: { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000', ...v.env },
    });
    try {
      const made = await fetch(`${server.baseUrl}/api/admin/businesses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${o.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Limit cost ${v.store}` }),
      });
      const key = ((await made.json()) as { data: { api_keys: { test: string } } }).data.api_keys.test;
      const url = `${server.baseUrl}/api/v1/banks`;
      const wrk = (seconds: number) =>
        spawnSync('wrk', ['-t', '2', '-c', String(o.connections), '-d', `${seconds}s`, '--latency', '-H', `Authorization: Bearer ${key}`, url], {
          encoding: 'utf8',
        });
      wrk(2); // warm-up: the key is looked up and remembered, the JIT has run
      const before = await bucketWrites(o.databaseUrl);
      const run = wrk(o.seconds);
      if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
      // Backends report table statistics at most once a second.
      await new Promise((r) => setTimeout(r, 1_500));
      const writes = (await bucketWrites(o.databaseUrl)) - before;
      const requests = Number(/(\d+) requests in/.exec(run.stdout)?.[1] ?? 0);
      results.push({
        store: v.store,
        per_second: Number(/Requests\/sec:\s+([\d.]+)/.exec(run.stdout)?.[1] ?? 0),
        p50_ms: latency(run.stdout, '50'),
        p99_ms: latency(run.stdout, '99'),
        requests,
        non_2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(run.stdout)?.[1] ?? 0),
        bucket_writes_per_1000: requests ? (writes / requests) * 1000 : 0,
      });
    } finally {
      await server.stop();
    }
  }
  return results;
}
