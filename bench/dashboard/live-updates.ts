import { randomUUID } from 'node:crypto';
import { fmt, openBenchEnv, percentile, signInDashboard, writeResult, type BenchEnv } from '../bench-env';

/**
 * Live updates of the dashboard, measured over HTTP as an open /payouts page
 * sees them (no browser; e2e/live-updates.spec.ts measures the same in Chromium):
 * 1. latency: from a payout's commit through the API (its answer) to its row in
 *    the payouts list JSON the page refetches when the live stream names it,
 *    p50 and p95 of PAYOUTS payouts (target p95 under 1 s);
 * 2. bytes per live update: that JSON list against the RSC payload a
 *    router.refresh() of /payouts fetched before (the same 25 rows).
 */
const PAYOUTS = Number(process.env.BENCH_LIVE_PAYOUTS ?? 20);
const PASSWORD = 'bench-live-pass-123';

/** The server-sent events of /api/dashboard/live, as a list of parsed messages that grows while the stream is open. */
async function openLiveStream(base: string, cookie: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/dashboard/live`, { headers: { cookie, accept: 'text/event-stream' }, signal: controller.signal });
  if (!res.ok || !res.body) throw new Error(`live stream: ${res.status}`);
  const messages: { at: number; data: { reference?: string; event: string } }[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  const decoder = new TextDecoder();
  let connected!: () => void;
  const ready = new Promise<void>((r) => {
    connected = r;
  });
  void (async () => {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.startsWith(': connected')) connected();
          if (frame.startsWith('data: ')) messages.push({ at: performance.now(), data: JSON.parse(frame.slice(6)) });
          for (const w of waiters) w();
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      /* aborted */
    }
  })();
  await ready;
  const waitFor = (reference: string, timeoutMs = 10_000) =>
    new Promise<number>((resolve, reject) => {
      const check = () => {
        const m = messages.find((x) => x.data.reference === reference);
        if (m) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(m.at);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no live update for ${reference}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { waitFor, close: () => controller.abort() };
}

export interface LiveUpdatesFigures {
  payouts: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  jsonBytes: number;
  rscBytes: number;
  ratio: number;
}

export async function runLiveUpdatesBench(env: BenchEnv): Promise<LiveUpdatesFigures> {
  const base = env.server!.baseUrl;
  const admin = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: Record<string, unknown> } }));
  const email = `live-${randomUUID()}@example.com`;
  const created = await admin('/api/admin/businesses', { name: 'Bench live updates', owner_email: email, owner_password: PASSWORD });
  const biz = created.body.data as { id: number; api_keys: { test: string } };
  const api = (path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${biz.api_keys.test}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: Record<string, string> } }));

  const card = await api('/api/v1/card', { phone_number: `+2519${Math.floor(10_000_000 + Math.random() * 89_999_999)}`, currency: 'ETB', first_name: 'Live' });
  await admin(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 10_000_000 });
  const topUp = await api('/api/v1/transfers', { amount: 10_000_000, bank_slug: 'link', account_number: card.body.data.card_number, account_name: 'Bench' });
  await api(`/api/v1/test-helpers/payouts/${topUp.body.data.provider_reference}/settle`, { status: 'success' });

  const cookie = await signInDashboard(base, email, PASSWORD);
  const stream = await openLiveStream(base, cookie);
  const listJson = async () => {
    const res = await fetch(`${base}/api/dashboard/payouts`, { headers: { cookie, accept: 'application/json' } });
    return res.text();
  };
  const pay = (i: number) =>
    api('/api/v1/card/payouts', {
      card_number: card.body.data.card_number,
      amount: 1_000 + i,
      bank_slug: 'cbe',
      account_number: `1000${String(i).padStart(5, '0')}9999`,
      account_name: 'Bench',
    });

  // Warm the page's JSON route and the stream once.
  const warm = await pay(0);
  await stream.waitFor(warm.body.data.provider_reference);
  await listJson();

  const samples: number[] = [];
  for (let i = 1; i <= PAYOUTS; i++) {
    const res = await pay(i);
    const committed = performance.now();
    const reference = res.body.data.provider_reference;
    await stream.waitFor(reference);
    // What the page does on hearing it: refetch the list query, whose answer holds the new row.
    const text = await listJson();
    if (!text.includes(reference)) throw new Error(`${reference} is not in the list it was announced to`);
    samples.push(performance.now() - committed);
    // Payouts arrive apart from each other, as a person watching the list sees them.
    await new Promise((r) => setTimeout(r, 120));
  }
  stream.close();

  // Bytes the browser receives per update: the list JSON now, against the RSC payload of a router.refresh() of /payouts before.
  const jsonBytes = Buffer.byteLength(await listJson());
  const rsc = await fetch(`${base}/payouts`, { headers: { cookie, rsc: '1' } });
  const rscBytes = Buffer.byteLength(await rsc.text());
  const figures = {
    payouts: PAYOUTS,
    p50Ms: percentile(samples, 50),
    p95Ms: percentile(samples, 95),
    maxMs: Math.max(...samples),
    jsonBytes,
    rscBytes,
    ratio: rscBytes / jsonBytes,
  };
  console.log(
    `live payouts list: commit → row in the open list's data, p50 ${fmt(figures.p50Ms)} ms, p95 ${fmt(figures.p95Ms)} ms, max ${fmt(figures.maxMs)} ms over ${PAYOUTS} API payouts (target p95 < 1000 ms)`,
  );
  console.log(
    `bytes per live update: ${jsonBytes} B of list JSON (one page of the list) against ${rscBytes} B of RSC payload for a router.refresh() of /payouts: ${fmt(figures.ratio)}x less`,
  );
  writeResult('dashboard-live-updates', figures);
  return figures;
}

if (process.argv[1]?.endsWith('live-updates.ts')) {
  const env = await openBenchEnv({ server: true });
  try {
    await runLiveUpdatesBench(env);
  } finally {
    await env.close();
  }
}
