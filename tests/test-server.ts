import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { freePort } from '../lib/db/embedded';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, process.env.NEXT_DIST_DIR || '.next');
const SOURCE_DIRS = ['app', 'server', 'lib', 'components', 'public', 'messages'];
const SOURCE_FILES = ['next.config.mjs', 'package.json', 'postcss.config.mjs', 'proxy.ts'];

function sourceStamp(): string {
  const hash = crypto.createHash('sha256');
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!entry.name.endsWith('.test.ts')) hash.update(`${full}:${fs.statSync(full).mtimeMs}\n`);
    }
  };
  for (const d of SOURCE_DIRS) walk(path.join(ROOT, d));
  for (const f of SOURCE_FILES) hash.update(`${f}:${fs.statSync(path.join(ROOT, f)).mtimeMs}\n`);
  return hash.digest('hex');
}

/**
 * scripts/start.ts with the modules of ours it loads, as one CommonJS file the test servers run. A run starts about a
 * hundred servers: under tsx's loader each start spent a second of CPU resolving and loading our modules one by one
 * (1.1-1.3 s to /api/health from the bundle, 1.8-2.0 s under tsx). CommonJS keeps start.ts's order: tracing patches
 * http and pg before they load. Packages stay outside, as they are in production.
 */
const START_BUNDLE = path.join(DIST, 'test-start', 'start.cjs');

function bundleStart(): void {
  const temporary = `${START_BUNDLE}.${process.pid}`;
  fs.mkdirSync(path.dirname(START_BUNDLE), { recursive: true });
  buildSync({
    entryPoints: [path.join(ROOT, 'scripts/start.ts')],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'error',
  });
  // Renamed into place whole: a bench or a second suite may start a server from it meanwhile.
  fs.renameSync(temporary, START_BUNDLE);
}

/** `next build` once, and again only when a source file changed since the last build; the start bundle every time. */
export function ensureProductionBuild(): void {
  buildWhenChanged();
  // After the build, which empties its folder.
  bundleStart();
}

function buildWhenChanged(): void {
  const stampFile = path.join(DIST, 'source-stamp');
  const stamp = sourceStamp();
  if (fs.existsSync(path.join(DIST, 'BUILD_ID')) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) return;
  const started = Date.now();
  const result = spawnSync('npx', ['next', 'build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`next build failed:\n${result.stdout}\n${result.stderr}`);
  fs.writeFileSync(stampFile, stamp);
  console.log(`next build done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export { freePort };

export interface TestServer {
  baseUrl: string;
  port: number;
  process: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the production server (scripts/start.ts) against databaseUrl and waits for /api/health. */
export async function startTestServer(opts: {
  databaseUrl: string;
  adminToken: string;
  env?: Record<string, string>;
  port?: number;
  /** Own process group, so stop() signals every process of the server at once. */
  processGroup?: boolean;
  /**
   * The server's stdout goes to this file instead of a pipe to this process: a benchmark blocked in
   * spawnSync(wrk) reads no pipe, and a server whose pipe is full buffers its log lines meanwhile.
   */
  stdoutFile?: string;
  /**
   * The background loops this server runs (BACKGROUND_TASKS, names in lib/background.ts); every one when
   * omitted. A server beside the shared one, on its database, needs none of them to answer HTTP: that one settles.
   */
  loops?: string[];
}): Promise<TestServer> {
  const port = opts.port ?? (await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftcard-server-'));
  let log = '';
  const stdoutFd = opts.stdoutFile ? fs.openSync(opts.stdoutFile, 'a') : undefined;
  // node itself on the bundle (bundleStart): no wrapper process between a test's signal and the server.
  const child = spawn(process.execPath, [START_BUNDLE], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: opts.databaseUrl,
      ADMIN_TOKEN: opts.adminToken,
      AUTH_SECRET: 'test-auth-secret-test-auth-secret',
      DATA_DIR: dataDir,
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      TEST_SETTLE_AFTER_MS: '0',
      // Several servers share one PostgreSQL (max_connections 100 on a stock server) with the test pools.
      DB_POOL_SIZE: '8',
      // Every test client connects from 127.0.0.1: the per-address limits are tested on servers of their own.
      SIGN_IN_ATTEMPTS_PER_MINUTE: '100000',
      ADMIN_TOKEN_ATTEMPTS_PER_MINUTE: '100000',
      CARD_LINK_MISSES_PER_MINUTE: '100000',
      SHOP_ORDERS_PER_ADDRESS: '100000',
      ...(opts.loops && { BACKGROUND_TASKS: opts.loops.join(',') || 'none' }),
      ...opts.env,
    },
    stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
    detached: opts.processGroup ?? false,
  });
  if (stdoutFd !== undefined) fs.closeSync(stdoutFd);
  child.stdout?.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${log}`);
    // Asked often: a run starts servers about a hundred times (crash tests restart theirs), each found up sooner.
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    baseUrl,
    port,
    process: child,
    output: () => (opts.stdoutFile ? fs.readFileSync(opts.stdoutFile, 'utf8') : '') + log,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      if (opts.processGroup) process.kill(-child.pid!, signal);
      else child.kill(signal);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Scratch databases of a run are copies of `<run database>_template`, migrated once in the global setup
 * (createMigratedTemplate): a copy takes a tenth of a second where replaying every migration took two.
 */
const templateOf = (database: string) => `${database}_template`;

/** Creates and migrates the template the scratch databases of databaseUrl's database are copied from. */
export async function createMigratedTemplate(databaseUrl: string): Promise<void> {
  const { applyMigrations } = await import('../lib/db/migrate');
  const url = new URL(databaseUrl);
  url.pathname = `/${templateOf(url.pathname.slice(1))}`;
  await createDatabase(databaseUrl, url.pathname.slice(1));
  await applyMigrations(url.toString());
}

/** A run's own database, and its template beside it: a copy of the template, so migrated too. */
export async function createRunDatabase(databaseUrl: string, name: string): Promise<string> {
  const url = new URL(databaseUrl);
  url.pathname = `/${url.pathname.slice(1)}_${name}`;
  await createMigratedTemplate(url.toString());
  await createDatabase(databaseUrl, url.pathname.slice(1), templateOf(url.pathname.slice(1)));
  return url.toString();
}

/** A fresh, migrated database on the same server as databaseUrl, named after it so the run's teardown drops it too. */
export async function createScratchDatabase(databaseUrl: string, name: string): Promise<string> {
  const url = new URL(databaseUrl);
  const base = url.pathname.slice(1);
  url.pathname = `/${base}_${name}`;
  let template: string | undefined = templateOf(base);
  await onServer(databaseUrl, async (admin) => {
    if ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template])).rowCount === 0) template = undefined;
  });
  await createDatabase(databaseUrl, url.pathname.slice(1), template);
  // Without a template (a database the global setup did not make), the migrations run from the start.
  if (!template) await (await import('../lib/db/migrate')).applyMigrations(url.toString());
  return url.toString();
}

async function createDatabase(databaseUrl: string, name: string, template?: string): Promise<void> {
  await onServer(databaseUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  });
}

/**
 * Drops every database whose name starts with prefix (a run's own database and its
 * scratch ones). Without force, one still in use (another run's) is left alone.
 */
export async function dropDatabases(databaseUrl: string, prefix: string, force = true): Promise<void> {
  await onServer(databaseUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [prefix]);
    const dropped = new Set<string>();
    // Templates last: nobody connects to a template, so another run's is left only while its own database is.
    const names = rows.map((r) => r.datname).sort((a, b) => Number(a.endsWith('_template')) - Number(b.endsWith('_template')));
    for (const datname of names) {
      const owner = datname.replace(/_template$/, '');
      if (!force && owner !== datname && names.includes(owner) && !dropped.has(owner)) continue;
      await admin.query(`DROP DATABASE IF EXISTS "${datname}"${force ? ' WITH (FORCE)' : ''}`).then(
        () => dropped.add(datname),
        (err) => {
          if (force) throw err;
        },
      );
    }
  });
}

async function onServer(databaseUrl: string, work: (admin: import('pg').Client) => Promise<void>): Promise<void> {
  const { default: pg } = await import('pg');
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}
