import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '../../lib/db/client';
import { freePort } from '../../lib/db/embedded';
import { fmt } from '../bench-env';
import { ensureWrk, runWrk } from '../payouts/http-load';

/**
 * What request logs and metrics add to one request, apart from the machine's
 * other load: one process serves the same trivial answer on two ports, bare and
 * wrapped in observeRequests (one JSON log line to a pipe, one histogram
 * observation, the request id and its context), and wrk takes turns on them.
 * The process's CPU per request on each side, and the difference, in
 * microseconds. The HTTP payout bench (bench/payouts, BENCH_OBSERVABILITY=compare)
 * measures the same through the whole app, where the machine's load swings more.
 */
const PAIRS = Number(process.env.BENCH_PAIRS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CLOCK_TICK = 100;

function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICK;
}

async function serve(): Promise<void> {
  const { observeRequests } = await import('../../lib/observability/observe-requests');
  // /metrics is never asked for here: the handle only has to exist.
  const { db } = createDb('postgres://127.0.0.1:1/none', 1);
  const answer: http.RequestListener = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '15' }).end('{"status":"ok"}');
  };
  const bare = http.createServer(answer);
  const observed = http.createServer(observeRequests(answer, { db, distDir: path.resolve('.next') }));
  const [a, b] = [await freePort(), await freePort()];
  await Promise.all([new Promise<void>((r) => bare.listen(a, '127.0.0.1', r)), new Promise<void>((r) => observed.listen(b, '127.0.0.1', r))]);
  process.send!({ bare: a, observed: b });
}

async function main(): Promise<void> {
  ensureWrk();
  // The server's log lines go to a file: this process blocks in spawnSync while wrk runs, and would read no pipe.
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-request-cost-')), 'server.log');
  const out = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'info', METRICS_TOKEN: 'bench-metrics-token' },
    stdio: ['ignore', out, 'inherit', 'ipc'],
  });
  fs.closeSync(out);
  const ports = await new Promise<{ bare: number; observed: number }>((resolve) => child.once('message', (m) => resolve(m as never)));
  try {
    const run = (port: number) => {
      runWrk({ baseUrl: `http://127.0.0.1:${port}`, seconds: 1, connections: 8 });
      const before = cpuMs(child.pid!);
      const r = runWrk({ baseUrl: `http://127.0.0.1:${port}`, seconds: SECONDS, connections: 8 });
      return { perSecond: r.perSecond, cpuUs: ((cpuMs(child.pid!) - before) * 1000) / r.requests };
    };
    const added: number[] = [];
    for (let pair = 1; pair <= PAIRS; pair++) {
      // Bare first in odd pairs, observed first in even ones.
      const first = run(pair % 2 ? ports.bare : ports.observed);
      const second = run(pair % 2 ? ports.observed : ports.bare);
      const [bare, observed] = pair % 2 ? [first, second] : [second, first];
      added.push(observed.cpuUs - bare.cpuUs);
      console.log(
        `pair ${pair}: bare ${fmt(bare.perSecond)}/s, ${fmt(bare.cpuUs)} µs CPU per request; observed ${fmt(observed.perSecond)}/s, ${fmt(observed.cpuUs)} µs; added ${fmt(observed.cpuUs - bare.cpuUs)} µs`,
      );
    }
    const median = [...added].sort((x, y) => x - y)[Math.floor((added.length - 1) / 2)];
    console.log(
      `logs and metrics add ${fmt(median)} µs of server CPU per request (median of ${PAIRS} pairs; ${fmt(fs.statSync(logFile).size / 1e6)} MB of log lines written)`,
    );
  } finally {
    child.kill();
    fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
  }
}

if (process.argv[2] === 'serve') void serve();
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
