import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const SCRIPT = path.join(import.meta.dirname, 'wrk-payouts.lua');

/** wrk, the C load generator: installed with apt-get when missing and this process is root, else the run stops and says so. */
export function ensureWrk(): void {
  if (spawnSync('wrk', ['--version']).error === undefined) return;
  if (process.getuid?.() !== 0) throw new Error('wrk is not installed: apt-get install wrk (or run the bench as root to have it installed)');
  console.log('wrk not found: installing it with apt-get');
  const install = spawnSync('sh', ['-c', 'apt-get install -y wrk || (apt-get update && apt-get install -y wrk)'], { stdio: 'inherit' });
  if (install.status !== 0 || spawnSync('wrk', ['--version']).error !== undefined) throw new Error('could not install wrk with apt-get');
}

export interface WrkResult {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  socketErrors: string | null;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function latencyMs(out: string, percent: string): number {
  const m = new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
  if (!m) throw new Error(`no ${percent}% latency in wrk output:\n${out}`);
  return Number(m[1]) * UNIT_MS[m[2]];
}

/**
 * One wrk run of `seconds` with `connections` kept-alive connections: GET
 * /api/health, or card-to-card payouts between random cards of `cardsFile`.
 * `instances` (host:port) spreads wrk's threads over several servers, round robin.
 */
export function runWrk(o: {
  baseUrl: string;
  seconds: number;
  connections: number;
  threads?: number;
  instances?: string[];
  payouts?: { cardsFile: string; apiKey: string };
  /** Another wrk script and its arguments (bench/batches). */
  script?: { path: string; args: string[] };
}): WrkResult {
  const args = [
    '-t',
    String(o.threads ?? 2),
    '-c',
    String(o.connections),
    '-d',
    `${o.seconds}s`,
    '--latency',
    '--timeout',
    '10s',
    '-s',
    o.script?.path ?? SCRIPT,
    o.baseUrl,
    '--',
  ];
  args.push(...(o.script ? o.script.args : o.payouts ? [o.payouts.cardsFile, o.payouts.apiKey] : ['health']));
  const run = spawnSync('wrk', args, { encoding: 'utf8', env: { ...process.env, WRK_INSTANCES: (o.instances ?? []).join(',') } });
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}${run.stdout}`);
  const out = run.stdout;
  const total = /(\d+) requests in/.exec(out);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!total || !rate) throw new Error(`no figures in wrk output:\n${out}`);
  return {
    requests: Number(total[1]),
    perSecond: Number(rate[1]),
    p50Ms: latencyMs(out, '50'),
    p99Ms: latencyMs(out, '99'),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: /Socket errors: (.*)/.exec(out)?.[1] ?? null,
  };
}

/** CPU time (user + system) of a process, in milliseconds; 0 once it is gone. */
function cpuMs(pid: number, tick: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / tick;
  } catch {
    return 0;
  }
}

const CLOCK_TICK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** A process and all its descendants, from /proc. */
export function processTree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone meanwhile */
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parent) if (ppid === tree[i]) tree.push(pid);
  return tree;
}

/**
 * The PostgreSQL processes that work for this database: its backends and the
 * server's WAL writer, checkpointer and background writer (which also serve
 * other databases of a shared server). Empty when PostgreSQL runs elsewhere.
 */
async function postgresPids(databaseUrl: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
       WHERE (datname = current_database() AND pid <> pg_backend_pid()) OR backend_type IN ('walwriter', 'checkpointer', 'background writer')`,
    );
    return rows.map((r) => r.pid).filter((pid) => fs.existsSync(`/proc/${pid}/stat`));
  } finally {
    await c.end();
  }
}

export interface CpuWindow {
  /** CPU milliseconds spent since start by the server processes and by PostgreSQL's. */
  stop(): Promise<{ serverMs: number; postgresMs: number }>;
}

/** Starts counting CPU time of the server process trees and of PostgreSQL (its processes as seen at start and at stop). */
export async function cpuWindow(serverPids: number[], databaseUrl: string): Promise<CpuWindow> {
  const servers = () => serverPids.flatMap(processTree);
  const sum = (pids: Iterable<number>, at: Map<number, number>) => {
    let total = 0;
    for (const pid of pids) {
      const now = cpuMs(pid, CLOCK_TICK);
      // A process gone by now took its count with it: it adds nothing rather than a negative.
      if (now > 0) total += now - (at.get(pid) ?? 0);
    }
    return total;
  };
  const snapshot = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuMs(pid, CLOCK_TICK)]));
  const serverStart = snapshot(servers());
  const pgStart = snapshot(await postgresPids(databaseUrl));
  return {
    async stop() {
      const serverMs = sum(new Set([...serverStart.keys(), ...servers()]), serverStart);
      const pgMs = sum(new Set([...pgStart.keys(), ...(await postgresPids(databaseUrl))]), pgStart);
      return { serverMs, postgresMs: pgMs };
    },
  };
}

/** The whole machine's CPU from /proc/stat's first line: busy (neither idle nor waiting on I/O) and all, in ticks. */
function machineTicks(): { busy: number; all: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const all = fields.reduce((a, b) => a + b, 0);
  return { busy: all - fields[3] - fields[4], all };
}

/** The machine's CPU over a timed run: milliseconds per transaction (every process, the load generator too) and the share left idle. */
export interface MachineCpu {
  cpuMsPerTransaction: number;
  idleShare: number;
}

/**
 * Counts the whole machine's CPU from now until stop, which shares it over the
 * transactions done. A run that leaves the cores idle waits on something else,
 * mostly WAL flushes.
 */
export function machineCpuWindow(): { stop(transactions: number): MachineCpu } {
  const start = machineTicks();
  return {
    stop(transactions) {
      const end = machineTicks();
      const busy = end.busy - start.busy;
      const all = end.all - start.all;
      return { cpuMsPerTransaction: (busy * 1000) / CLOCK_TICK / transactions, idleShare: all > 0 ? 1 - busy / all : 0 };
    },
  };
}
