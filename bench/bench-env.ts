import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../lib/db/client';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../lib/db/embedded';
import { applyMigrations } from '../lib/db/migrate';
import { ensureProductionBuild, startTestServer, type TestServer } from '../tests/test-server';

export interface BenchEnv {
  databaseUrl: string;
  databaseLabel: string;
  server?: TestServer;
  adminToken: string;
  close(): Promise<void>;
}

/** PostgreSQL (DATABASE_URL or a fresh embedded one), migrated, and optionally the production server. */
export async function openBenchEnv(opts: { server?: boolean; serverEnv?: Record<string, string> } = {}): Promise<BenchEnv> {
  let embedded: EmbeddedDatabase | undefined;
  let dir: string | undefined;
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftcard-bench-'));
    embedded = await startEmbeddedPostgres(dir);
    databaseUrl = embedded.url;
  }
  await applyMigrations(databaseUrl);
  const adminToken = 'adm_bench_token_0123456789abcdef';
  let server: TestServer | undefined;
  if (opts.server) {
    ensureProductionBuild();
    server = await startTestServer({ databaseUrl, adminToken, env: opts.serverEnv });
  }
  return {
    databaseUrl,
    databaseLabel: embedded ? 'embedded PostgreSQL 18' : `PostgreSQL at ${new URL(databaseUrl).host}`,
    server,
    adminToken,
    async close() {
      await server?.stop();
      await embedded?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** BENCH_CPU_PROF=<dir>: the server's environment to write a V8 CPU profile there when it stops (bench/payouts/profile-summary.ts reads it). */
export function cpuProfileEnv(): Record<string, string> {
  return process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--require ${path.join(import.meta.dirname, 'payouts', 'cpu-profile.cjs')}` } : {};
}

/**
 * Waits until no webhook delivery is pending, of the endpoints `endpoints`
 * picks (a condition on `w`, webhook_endpoints; all by default); answers the
 * seconds it took.
 */
export async function deliveriesDrained(db: Db, o: { endpoints?: SQL; timeoutMs?: number } = {}): Promise<number> {
  const started = performance.now();
  const timeoutMs = o.timeoutMs ?? 600_000;
  for (;;) {
    const { rows } = await db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
      WHERE d.state = 'pending' AND ${o.endpoints ?? sql`true`}`);
    if (rows[0].n === 0) return (performance.now() - started) / 1000;
    if (performance.now() - started > timeoutMs) throw new Error(`${rows[0].n} webhook deliveries still pending after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Times `count` calls of fn with `concurrency` in flight; milliseconds per call. */
export async function timeCalls(count: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t = performance.now();
        await fn(i);
        samples.push(performance.now() - t);
      }
    }),
  );
  return samples;
}

export function writeResult(name: string, result: unknown): void {
  const dir = path.join(import.meta.dirname, 'out');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(result, null, 2));
}

export const fmt = (n: number) => n.toFixed(2);

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One HTTP request over a kept-alive connection with node:http: a much lighter
 * client than fetch, so a throughput run measures the server more than the
 * load generator that shares its cores (as pgbench's C client does).
 */
export function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = opts.body === undefined ? opts.headers : { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) };
    const req = http.request(url, { method: opts.method ?? 'GET', agent: keepAlive, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** next-auth's credentials flow with fetch: CSRF token and cookie first, then the form post; returns the Cookie header. */
export async function signInDashboard(base: string, email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const csrfRes = await fetch(`${base}/api/auth/csrf`);
  keep(csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: header() },
    body: new URLSearchParams({ csrfToken, email, password, json: 'true' }),
  });
  keep(res);
  if (![...jar.keys()].some((k) => k.endsWith('next-auth.session-token'))) throw new Error(`sign-in failed for ${email}: ${res.status}`);
  return header();
}
