import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { percentile } from '../bench-env';

export interface NoisyNeighbourOptions {
  baseUrl: string;
  adminToken: string;
  /** B's requests per phase. */
  samples?: number;
  /** Pause between two of B's requests: a steady, ordinary client. */
  paceMs?: number;
  /** A's parallel loops, each sending as fast as answers come back. */
  floodConcurrency?: number;
  /** Alone and flooded phases alternate this many times, so drift of the machine hits both alike. */
  rounds?: number;
}

export interface NoisyNeighbourResult {
  samples: number;
  alone_p50_ms: number;
  alone_p99_ms: number;
  flooded_p50_ms: number;
  flooded_p99_ms: number;
  p99_ratio: number;
  flood_requests: number;
  flood_throttled: number;
  flood_served: number;
  flood_per_second: number;
  flood_seconds: number;
  b_errors: number;
}

// A's flood runs in a process of its own, as another business's client would: its loops then cannot delay the timing of B's requests here.
const FLOOD = `
let stop = false, requests = 0, throttled = 0, served = 0, told = false;
process.on('SIGTERM', () => { stop = true; });
// Never outlive the measuring process, nor run longer than two minutes.
const parent = process.ppid;
setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 500).unref();
setTimeout(() => { stop = true; }, 120000).unref();
const loop = async () => {
  while (!stop) {
    try {
      const res = await fetch(process.env.FLOOD_URL, { headers: { authorization: 'Bearer ' + process.env.FLOOD_KEY } });
      await res.arrayBuffer();
      requests++;
      if (res.status === 429) { throttled++; if (!told) { told = true; process.stdout.write('throttled\\n'); } }
      else if (res.status === 200) served++;
    } catch { requests++; }
  }
};
Promise.all(Array.from({ length: Number(process.env.FLOOD_CONCURRENCY) }, loop)).then(() => {
  process.stdout.write(JSON.stringify({ requests, throttled, served }) + '\\n');
});
`;

async function flood(url: string, key: string, concurrency: number) {
  const child = spawn(process.execPath, ['-e', FLOOD], {
    env: { ...process.env, FLOOD_URL: url, FLOOD_KEY: key, FLOOD_CONCURRENCY: String(concurrency) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let onData: () => void = () => {};
  child.stdout!.on('data', (d) => {
    out += d;
    onData();
  });
  const throttled = new Promise<void>((resolve) => (onData = () => out.includes('throttled') && resolve()));
  await Promise.race([throttled, new Promise((r) => setTimeout(r, 5_000))]);
  return async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    const last = out.trim().split('\n').pop()!;
    return JSON.parse(last) as { requests: number; throttled: number; served: number };
  };
}

async function admin(o: NoisyNeighbourOptions, path: string, body: unknown) {
  const res = await fetch(`${o.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${o.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * Business B reads its card at a steady pace, first alone, then while business A
 * floods the API from several loops far above its limit; B's latency is compared.
 */
export async function measureNoisyNeighbour(o: NoisyNeighbourOptions): Promise<NoisyNeighbourResult> {
  const samples = o.samples ?? 300;
  const paceMs = o.paceMs ?? 10;
  const rounds = o.rounds ?? 2;
  const a = await admin(o, '/api/admin/businesses', { name: 'Noisy A' });
  const b = await admin(o, '/api/admin/businesses', { name: 'Quiet B' });
  const call = (key: string, method: string, path: string, body?: unknown) =>
    fetch(`${o.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const phone = `+2519${randomInt(1, 10)}${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
  const created = await call(b.api_keys.test, 'POST', '/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Quiet', last_name: 'B' });
  const card = (await created.json()).data.card_number as string;

  let bErrors = 0;
  const runB = async (n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const res = await call(b.api_keys.test, 'GET', `/api/v1/card/${card}`);
      await res.arrayBuffer();
      times.push(performance.now() - t);
      if (res.status !== 200) bErrors++;
      await new Promise((r) => setTimeout(r, paceMs));
    }
    return times;
  };

  await runB(50);
  const alone: number[] = [];
  const flooded: number[] = [];
  let floodRequests = 0;
  let throttled = 0;
  let served = 0;
  let floodMs = 0;
  const perRound = Math.ceil(samples / rounds);
  for (let round = 0; round < rounds; round++) {
    alone.push(...(await runB(perRound)));
    const started = performance.now();
    // B starts once A has spent its burst: the comparison is about A while throttled.
    const stopFlood = await flood(`${o.baseUrl}/api/v1/card`, a.api_keys.test, o.floodConcurrency ?? 4);
    let counts: Awaited<ReturnType<typeof stopFlood>>;
    try {
      flooded.push(...(await runB(perRound)));
    } finally {
      counts = await stopFlood();
    }
    floodRequests += counts.requests;
    throttled += counts.throttled;
    served += counts.served;
    floodMs += performance.now() - started;
  }
  const aloneP99 = percentile(alone, 99);
  const floodedP99 = percentile(flooded, 99);
  return {
    samples: alone.length,
    alone_p50_ms: percentile(alone, 50),
    alone_p99_ms: aloneP99,
    flooded_p50_ms: percentile(flooded, 50),
    flooded_p99_ms: floodedP99,
    p99_ratio: floodedP99 / aloneP99,
    flood_requests: floodRequests,
    flood_throttled: throttled,
    flood_served: served,
    flood_per_second: floodRequests / (floodMs / 1000),
    flood_seconds: floodMs / 1000,
    b_errors: bErrors,
  };
}
