import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { createDb, type Db } from '../../lib/db/client';
import { pidListeningOn, residentMb } from '../../tests/process-memory';
import { startTestServer, type TestServer } from '../../tests/test-server';
import { fmt, openBenchEnv, signInDashboard, writeResult } from '../bench-env';

/**
 * The dashboard's CSV exports over HTTP from the production server: one
 * business with 1,000,000 payouts and 100,000 payments (set-based SQL), each
 * export downloaded whole by a signed-in finance user while the server's
 * resident memory is sampled every 100 ms. Prints rows, seconds, rows/s, MB,
 * the peak RSS and its growth over the idle baseline, and rows/s by tenth of
 * the file, so keyset batches slowing down deep into the list would show.
 * Flat memory is shown two ways: a reader that pauses makes the server stop
 * reading rows (RSS does not rise over the pause), and a server whose V8 heap
 * is capped at 160 MB still sends the million rows (growth target <= 100 MB).
 * Run alone: `npx tsx bench/dashboard/exports.ts` (BENCH_EXPORT_PAYOUTS,
 * BENCH_EXPORT_PAYMENTS, BENCH_EXPORT_HEAP_MB, BENCH_EXPORT_PAUSE_MS to change).
 */
const PAYOUTS = Number(process.env.BENCH_EXPORT_PAYOUTS ?? 1_000_000);
const PAYMENTS = Number(process.env.BENCH_EXPORT_PAYMENTS ?? 100_000);
const PASSWORD = 'bench-exports-pass-1';
const PAUSE_RISE_TARGET_MB = 16;
const CAPPED_HEAP_MB = Number(process.env.BENCH_EXPORT_HEAP_MB ?? 160);
const CAPPED_GROWTH_TARGET_MB = 100;
const PAUSE_MS = Number(process.env.BENCH_EXPORT_PAUSE_MS ?? 5000);

/** Every payout kind and payer, a fee on each, some failed with a reason, some pending, and account names a spreadsheet would run. */
async function seedPayouts(db: Db, businessId: number, count: number) {
  for (let done = 0; done < count; done += 100_000) {
    const upto = Math.min(count, done + 100_000);
    await db.execute(sql`
      INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference,
                           source_card_number, destination_card_number, merchant_id, bank_slug, account_number, account_name, is_ledger_topup,
                           actor_type, actor_id, created_at, updated_at, completed_at, failure_reason)
      SELECT ${businessId}, 'test', k.type, k.status, 'ETB', 100 + g % 100000, CASE WHEN k.topup THEN 0 ELSE 10 + (100 + g % 100000) / 100 END,
             CASE k.type WHEN 'card_to_card' THEN (ARRAY['sender', 'receiver'])[1 + g % 2] ELSE (ARRAY['business', 'customer'])[1 + (g / 10) % 2 * (NOT k.topup)::int] END,
             'po_exp_' || ${businessId} || '_' || g,
             CASE WHEN k.topup THEN NULL ELSE '4000000000000002' END,
             CASE WHEN k.type = 'card_to_card' OR k.topup THEN '4000000000000010' END,
             CASE WHEN k.type = 'b2b' THEN 'mer_partner' END,
             CASE WHEN k.topup THEN 'link' WHEN k.type = 'bank' THEN 'cbe' END,
             CASE WHEN k.type = 'bank' THEN '1000' || lpad((g % 1000000000)::text, 9, '0') END,
             CASE WHEN k.type <> 'bank' THEN NULL WHEN g % 1000 = 3 THEN '=HYPERLINK("http://x.test","pay")' ELSE 'Abebe, Kebede "AK"' END,
             k.topup, 'system', 'bench',
             now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval,
             CASE WHEN k.status = 'pending' THEN NULL ELSE now() - (g || ' seconds')::interval END,
             CASE WHEN k.status = 'failed' THEN 'The bank refused the account number.' END
      FROM generate_series(${done + 1}::int, ${upto}::int) g,
      LATERAL (SELECT (ARRAY['card_to_card', 'card_to_card', 'card_to_card', 'card_to_card', 'card_to_card', 'bank', 'bank', 'bank', 'b2b', 'b2b'])[1 + g % 10] AS type,
                      g % 10 = 7 AS topup,
                      CASE WHEN g % 50 = 0 THEN 'failed' WHEN g % 97 = 0 THEN 'pending' ELSE 'success' END AS status) k`);
  }
}

async function seedPayments(db: Db, businessId: number, count: number) {
  await db.execute(sql`
    INSERT INTO payments (business_id, mode, type, status, link_reference, merchant_reference, provider_reference, currency, amount, service_fee,
                          payment_method, card_id, card_number, actor_type, created_at, updated_at, completed_at, failure_reason)
    SELECT ${businessId}, 'test', CASE WHEN g % 3 = 0 THEN 'direct-charge' ELSE 'hosted' END, CASE WHEN g % 40 = 0 THEN 'failed' ELSE 'success' END,
           'pl_exp_' || ${businessId} || '_' || g, 'ORD-' || g, 'pp_exp_' || ${businessId} || '_' || g, 'ETB', 1000 + g % 5000, (1000 + g % 5000) * 15 / 1000,
           CASE WHEN g % 3 = 0 THEN 'telebirr' END, 0, '4000000000000002', 'system',
           now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval,
           CASE WHEN g % 40 = 0 THEN 'The customer cancelled.' END
    FROM generate_series(1, ${count}::int) g`);
}

interface Download {
  rows: number;
  bytes: number;
  seconds: number;
  /** Rows per second of each tenth of the file, in order. */
  tenths: number[];
  firstLine: string;
  /** MB the server's RSS rose from the start to the end of the reader's pause. */
  pausedRise?: number;
}

/**
 * Reads a CSV over HTTP as it streams, counting lines and bytes without keeping them. With `pause`, the reader
 * stops for PAUSE_MS after that many bytes, and the server's RSS rise meanwhile is measured: a server that ignored
 * backpressure would go on reading rows into memory.
 */
function download(url: string, cookie: string, expectedRows: number, pause?: { afterBytes: number; pid: number }): Promise<Download> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    http
      .get(url, { headers: { cookie } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
        let lines = 0;
        let bytes = 0;
        let firstLine = '';
        let pausedRise: number | undefined;
        const marks: number[] = [];
        let nextMark = expectedRows / 10;
        let lastMark = start;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (pause && bytes >= pause.afterBytes) {
            const pid = pause.pid;
            pause = undefined;
            res.pause();
            const before = residentMb(pid);
            const during = sampleRss(pid);
            setTimeout(() => {
              const series = during.stop();
              if (process.env.BENCH_EXPORT_DEBUG) console.log(`  RSS while paused: ${series.map(Math.round).join(' ')}`);
              pausedRise = series[series.length - 1] - before;
              res.resume();
            }, PAUSE_MS);
          }
          if (!firstLine) firstLine = chunk.subarray(0, chunk.indexOf(10)).toString('utf8');
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
          while (lines - 1 >= nextMark && marks.length < 10) {
            const now = performance.now();
            marks.push(expectedRows / 10 / ((now - lastMark) / 1000));
            lastMark = now;
            nextMark += expectedRows / 10;
          }
        });
        res.on('end', () => resolve({ rows: lines - 1, bytes, seconds: (performance.now() - start) / 1000, tenths: marks, firstLine, pausedRise }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Samples a process's resident memory every 100 ms until stopped. */
function sampleRss(pid: number) {
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(residentMb(pid)), 100);
  return {
    stop() {
      clearInterval(timer);
      samples.push(residentMb(pid));
      return samples;
    },
  };
}

/** The highest sample of each tenth of a run: memory that grows with the rows sent climbs tenth by tenth; garbage makes a level sawtooth. */
const peaksByTenth = (samples: number[]) =>
  Array.from({ length: 10 }, (_, i) => Math.max(...samples.slice(Math.floor((i * samples.length) / 10), Math.floor(((i + 1) * samples.length) / 10) + 1)));

const idle = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Target {
  label: string;
  base: string;
  pid: number;
  cookie: string;
  idleMb: number;
}

/** Signs in, loads both export routes once (an empty day), then takes the server's idle RSS over 2 s. */
async function prepare(label: string, server: TestServer, email: string): Promise<Target> {
  const base = server.baseUrl;
  const cookie = await signInDashboard(base, email, PASSWORD);
  const pid = pidListeningOn(server.port);
  for (const path of ['/payouts/export?from=2000-01-01&to=2000-01-01', '/payments/export?from=2000-01-01&to=2000-01-01']) {
    await download(`${base}${path}`, cookie, 1);
  }
  await idle(1000);
  const baseline = sampleRss(pid);
  await idle(2000);
  const samples = baseline.stop();
  return { label, base, pid, cookie, idleMb: samples.reduce((a, b) => a + b, 0) / samples.length };
}

/** One download with the server's RSS sampled throughout; true when every row came and a paused reader made the server hold nothing more. */
async function measure(target: Target, run: { name: string; path: string; expected: number; pauseAfterBytes?: number }, results: Record<string, unknown>) {
  const rss = sampleRss(target.pid);
  const d = await download(
    `${target.base}${run.path}`,
    target.cookie,
    run.expected,
    run.pauseAfterBytes ? { afterBytes: run.pauseAfterBytes, pid: target.pid } : undefined,
  );
  const samples = rss.stop();
  const peak = Math.max(...samples);
  const tenths = peaksByTenth(samples);
  results[`${target.label}: ${run.name}`] = {
    rows: d.rows,
    seconds: d.seconds,
    rows_per_s: d.rows / d.seconds,
    mb: d.bytes / 1e6,
    idle_rss_mb: target.idleMb,
    peak_rss_mb: peak,
    rss_growth_mb: peak - target.idleMb,
    rss_peak_by_tenth_mb: tenths,
    ...(d.pausedRise !== undefined && { rss_change_while_reader_paused_mb: d.pausedRise }),
    rows_per_s_by_tenth: d.tenths,
  };
  console.log(
    `GET ${run.path} (${target.label}, ${run.name}): ${d.rows} rows in ${fmt(d.seconds)} s = ${Math.round(d.rows / d.seconds)} rows/s, ${fmt(d.bytes / 1e6)} MB` +
      `${d.rows === run.expected ? '' : ` ROWS MISSING: expected ${run.expected}`}`,
  );
  console.log(
    `  server RSS idle ${fmt(target.idleMb)} MB, peak ${fmt(peak)} MB, growth ${fmt(peak - target.idleMb)} MB; peak by tenth of the download: ${tenths.map((m) => Math.round(m)).join(', ')} MB` +
      (d.pausedRise === undefined
        ? ''
        : `; RSS change over the ${PAUSE_MS / 1000} s the reader paused: ${fmt(d.pausedRise)} MB (target <= ${PAUSE_RISE_TARGET_MB})`),
  );
  console.log(
    `  rows/s by tenth of the file: ${d.tenths.map((r) => Math.round(r)).join(', ')} (last/first ${fmt(d.tenths[d.tenths.length - 1] / d.tenths[0])})`,
  );
  return { ok: d.rows === run.expected && (d.pausedRise ?? 0) <= PAUSE_RISE_TARGET_MB, header: d.firstLine, peak, growth: peak - target.idleMb };
}

export async function runExportsBench(): Promise<boolean> {
  const env = await openBenchEnv({ server: true });
  const { db, pool } = createDb(env.databaseUrl, 4);
  let businessId: number | undefined;
  let capped: TestServer | undefined;
  try {
    const base = env.server!.baseUrl;
    const admin = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = await admin('/api/admin/businesses', {
      name: 'bench-exports',
      owner_email: `exports-${randomUUID()}@example.com`,
      owner_password: PASSWORD,
    });
    businessId = ((await created.json()) as { data: { id: number } }).data.id;
    const email = `finance-${randomUUID()}@example.com`;
    const user = await admin(`/api/admin/businesses/${businessId}/users`, { email, password: PASSWORD, role: 'finance' });
    if (user.status !== 201) throw new Error(`finance user: ${user.status}`);

    const t = performance.now();
    await seedPayouts(db, businessId, PAYOUTS);
    await seedPayments(db, businessId, PAYMENTS);
    await db.execute(sql`ANALYZE payouts, payments`);
    console.log(`exports: seeded ${PAYOUTS} payouts and ${PAYMENTS} payments in ${fmt((performance.now() - t) / 1000)} s on ${env.databaseLabel}`);

    const results: Record<string, unknown> = {};
    let pass = true;
    const server = await prepare('default heap', env.server!, email);
    const first = await measure(server, { name: 'payouts', path: '/payouts/export', expected: PAYOUTS }, results);
    const paused = await measure(server, { name: 'payouts, reader pausing', path: '/payouts/export', expected: PAYOUTS, pauseAfterBytes: 20e6 }, results);
    const paymentsRun = await measure(server, { name: 'payments', path: '/payments/export', expected: PAYMENTS }, results);
    pass &&= first.ok && paused.ok && paymentsRun.ok;

    // The same export from a server whose V8 heap may not pass CAPPED_HEAP_MB: it can finish only if no rows pile up.
    capped = await startTestServer({
      databaseUrl: env.databaseUrl,
      adminToken: env.adminToken,
      env: { NODE_OPTIONS: `--max-old-space-size=${CAPPED_HEAP_MB}` },
    });
    const small = await prepare(`heap capped at ${CAPPED_HEAP_MB} MB`, capped, email);
    const cappedRun = await measure(small, { name: 'payouts', path: '/payouts/export', expected: PAYOUTS }, results);
    pass &&= cappedRun.ok && cappedRun.growth <= CAPPED_GROWTH_TARGET_MB;
    console.log(
      `  capped server: growth ${fmt(cappedRun.growth)} MB (target <= ${CAPPED_GROWTH_TARGET_MB}); the default heap's sawtooth is V8 collecting late, not rows kept: its peak is the same for ${PAYMENTS} and ${PAYOUTS} rows (${fmt(paymentsRun.peak)} and ${fmt(first.peak)} MB)`,
    );
    console.log(`payouts header: ${first.header}`);
    writeResult('dashboard-exports', { database: env.databaseLabel, payouts: PAYOUTS, payments: PAYMENTS, capped_heap_mb: CAPPED_HEAP_MB, ...results, pass });
    return pass;
  } finally {
    await capped?.stop();
    if (businessId !== undefined) {
      await db.execute(sql`DELETE FROM payouts WHERE business_id = ${businessId}`);
      await db.execute(sql`DELETE FROM payments WHERE business_id = ${businessId}`);
    }
    await pool.end();
    await env.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = (await runExportsBench()) ? 0 : 1;
}
