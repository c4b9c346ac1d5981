import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { createBusiness } from '../../lib/admin/businesses';
import { createDb } from '../../lib/db/client';
import { startDeliveryWorker } from '../../lib/webhooks/delivery-worker';
import { upsertEndpoint } from '../../lib/webhooks/endpoints';
import { openBenchEnv, percentile, writeResult } from '../bench-env';
import { emitPaymentEvent } from '../../tests/webhook-events';

/**
 * Webhook delivery to a local receiver that answers 200 at once, with the
 * delivery worker as the server runs it (same process here):
 * 1. drain: a backlog of BACKLOG committed events, deliveries per second;
 * 2. steady: RATE events per second for SECONDS, time from commit to arrival.
 */
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 3000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

const emit = emitPaymentEvent;

async function main() {
  const env = await openBenchEnv();
  const { db, pool } = createDb(env.databaseUrl, 10);
  const arrived = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived.set(String(req.headers['webhook-id']), performance.now());
      res.writeHead(200).end();
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    const business = await createBusiness(db, { name: 'Bench webhooks' });
    // Only the local receiver: the dashboard endpoint would point at a server this bench does not start.
    await db.execute(sql`UPDATE webhook_endpoints SET disabled_at = now() WHERE business_id = ${business.id} AND kind = 'dashboard'`);
    await upsertEndpoint(db, { businessId: business.id, mode: 'test', kind: 'business', url, secret: `whsec_${Buffer.alloc(32, 3).toString('base64')}` });

    // 1. drain a backlog
    const backlog: string[] = [];
    for (let i = 0; i < BACKLOG; i += 50)
      backlog.push(...(await Promise.all(Array.from({ length: Math.min(50, BACKLOG - i) }, (_, j) => emit(db, business.id, i + j)))));
    const t0 = performance.now();
    let stop = startDeliveryWorker(db);
    while (!backlog.every((id) => arrived.has(id))) await new Promise((r) => setTimeout(r, 20));
    const drainMs = Math.max(...backlog.map((id) => arrived.get(id)!)) - t0;
    const perSecond = BACKLOG / (drainMs / 1000);
    await stop();
    await new Promise((r) => setTimeout(r, 300));

    // 2. steady rate, commit to arrival
    stop = startDeliveryWorker(db);
    const committed = new Map<string, number>();
    const total = RATE * SECONDS;
    const started = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inFlight.push(emit(db, business.id, BACKLOG + i).then((id) => void committed.set(id, performance.now())));
    }
    await Promise.all(inFlight);
    while (![...committed.keys()].every((id) => arrived.has(id))) await new Promise((r) => setTimeout(r, 20));
    await stop();
    const latencies = [...committed].map(([id, at]) => arrived.get(id)! - at);
    const { rows } = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state <> 'delivered' AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE kind = 'business')`,
    );

    console.log(`webhooks bench (${env.databaseLabel}, worker in process, receiver answers 200 at once)`);
    console.log(`  drain ${BACKLOG} queued events: ${drainMs.toFixed(0)} ms = ${perSecond.toFixed(0)} deliveries/s (target >= 500)`);
    console.log(
      `  steady ${RATE}/s for ${SECONDS} s: commit to delivery p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms (target p99 < 1000 ms)`,
    );
    console.log(`  business deliveries not delivered at the end: ${rows[0].n}`);
    const p99 = percentile(latencies, 99);
    writeResult('webhooks', {
      database: env.databaseLabel,
      backlog: BACKLOG,
      deliveries_per_second: perSecond,
      steady_rate: RATE,
      steady_seconds: SECONDS,
      commit_to_delivery_p50_ms: percentile(latencies, 50),
      commit_to_delivery_p99_ms: p99,
      undelivered: Number(rows[0].n),
      pass: perSecond >= 500 && p99 < 1000 && Number(rows[0].n) === 0,
    });
  } finally {
    receiver.close();
    await pool.end();
    await env.close();
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
