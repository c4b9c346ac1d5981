import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './test-server';

/** Debian's haproxy; HAPROXY overrides the path. */
export const HAPROXY = process.env.HAPROXY ?? '/usr/sbin/haproxy';

export interface RoundRobinProxy {
  url: string;
  /** Each backend's state as haproxy's health checks see it: UP, DOWN, MAINT, ... */
  states(): Promise<Record<string, string>>;
  /** Resolves once haproxy's checks say `name` is `state`. */
  waitFor(name: string, state: 'UP' | 'DOWN', timeoutMs?: number): Promise<void>;
  output(): string;
  stop(): Promise<void>;
}

/**
 * haproxy with a generated config on free ports: round robin over `backends`,
 * each checked with GET /api/ready every 200 ms (two failures take it out, one
 * success puts it back), and a request that fails to reach a server or gets no
 * answer is tried again on another (our POSTs carry an Idempotency-Key).
 */
export async function startRoundRobinProxy(backends: { name: string; port: number }[]): Promise<RoundRobinProxy> {
  const [port, statsPort] = [await freePort(), await freePort()];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftcard-haproxy-'));
  const config = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(
    config,
    `global
  maxconn 2000

defaults
  mode http
  timeout connect 1s
  timeout client 60s
  timeout server 60s
  timeout http-request 10s
  timeout check 2s
  retries 3
  option redispatch 1
  retry-on all-retryable-errors

frontend api
  bind 127.0.0.1:${port}
  default_backend app

backend app
  balance roundrobin
  option httpchk GET /api/ready
  http-check expect status 200
  default-server inter 200ms fastinter 100ms downinter 100ms fall 2 rise 1
${backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`).join('\n')}

frontend stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
`,
  );
  let log = '';
  const child = spawn(HAPROXY, ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const states = async (): Promise<Record<string, string>> => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const rows = csv.split('\n').map((line) => line.split(','));
    const status = rows[0].indexOf('status');
    return Object.fromEntries(rows.filter((r) => r[0] === 'app' && r[1] !== 'BACKEND').map((r) => [r[1], r[status]]));
  };
  const waitFor = async (name: string, state: 'UP' | 'DOWN', timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`haproxy exited:\n${log}`);
      const now = await states().catch(() => ({}) as Record<string, string>);
      if (now[name]?.startsWith(state)) return;
      if (Date.now() > deadline) throw new Error(`haproxy: ${name} not ${state} within ${timeoutMs} ms (${JSON.stringify(now)})\n${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  for (const b of backends) await waitFor(b.name, 'UP');
  return {
    url: `http://127.0.0.1:${port}`,
    states,
    waitFor,
    output: () => log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
