import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../lib/db/embedded';

// scripts/test.sh installs Debian's when it can (scripts/find-pgbouncer.sh).
export const PGBOUNCER = [process.env.PGBOUNCER_PATH, '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => p && fs.existsSync(p));

/** Polls until check returns a value (this file is also used outside vitest, by bench/pooler). */
async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('pgbouncer did not start listening in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Debian's pgbouncer in transaction mode in front of databaseUrl's database, with serverConnections connections to it. */
export async function startPgBouncer(
  databaseUrl: string,
  serverConnections: number,
): Promise<{ url: string /** The admin console (SHOW POOLS, SHOW SERVERS, SHOW STATS). */; adminUrl: string; stop(): Promise<void>; log(): string }> {
  const target = new URL(databaseUrl);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftcard-pgbouncer-'));
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const database = target.pathname.slice(1);
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${decodeURIComponent(target.username)}" ""\n`);
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${database} = host=${target.hostname} port=${target.port || 5432} dbname=${database} user=${decodeURIComponent(target.username)}${target.password ? ` password=${decodeURIComponent(target.password)}` : ''}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `admin_users = ${decodeURIComponent(target.username)}`,
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${serverConnections}`,
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: -u drops to the postgres user.
  const asRoot = os.userInfo().uid === 0 ? ['-u', 'postgres'] : [];
  if (!PGBOUNCER) throw new Error('no pgbouncer binary (apt-get install pgbouncer)');
  const child: ChildProcess = spawn(PGBOUNCER, [...asRoot, path.join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  await waitFor(
    () =>
      new Promise<true | undefined>((resolve) => {
        if (child.exitCode !== null) throw new Error(`pgbouncer exited:\n${log}`);
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(undefined));
      }),
  );
  target.port = String(port);
  target.hostname = '127.0.0.1';
  const admin = new URL(target);
  admin.pathname = '/pgbouncer';
  return {
    url: target.toString(),
    adminUrl: admin.toString(),
    log: () => log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
