import { sql } from 'drizzle-orm';
import { createDb } from '../../lib/db/client';
import { cpuProfileEnv, deliveriesDrained, fmt, openBenchEnv, request, writeResult } from '../bench-env';
import { cpuWindow } from '../payouts/http-load';
import { emitPaymentEvent } from '../../tests/webhook-events';

/**
 * How fast the production server delivers a business's events to its own
 * dashboard endpoint (signed, posted to /api/webhooks/{id}, verified, kept
 * once, NOTIFYed, the attempt stored): BENCH_EVENTS events are written with
 * the endpoint off (their deliveries stored as failed), then all made due at
 * once; the figures are deliveries per second until none is pending, and the
 * CPU milliseconds the server and PostgreSQL spent per delivery meanwhile.
 * A batch of payouts makes one event per payout, so this is the rate past
 * which the dashboard's live view falls behind them.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const RUNS = Number(process.env.BENCH_ROUNDS ?? 2);

async function main() {
  const env = await openBenchEnv({ server: true, serverEnv: { DB_POOL_SIZE: '20', ...cpuProfileEnv() } });
  const { db, pool } = createDb(env.databaseUrl, 8);
  try {
    const res = await request(`${env.server!.baseUrl}/api/admin/businesses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench dashboard drain' }),
    });
    const businessId = (JSON.parse(res.text) as { data: { id: number } }).data.id;
    const endpoint = (
      await db.execute<{ id: number }>(sql`SELECT id FROM webhook_endpoints WHERE business_id = ${businessId} AND mode = 'test' AND kind = 'dashboard'`)
    ).rows[0].id;
    await db.execute(sql`UPDATE webhook_endpoints SET disabled_at = now() WHERE id = ${endpoint}`);
    for (let i = 0; i < EVENTS; i += 100)
      await Promise.all(Array.from({ length: Math.min(100, EVENTS - i) }, (_, j) => emitPaymentEvent(db, businessId, i + j)));
    await db.execute(sql`UPDATE webhook_endpoints SET disabled_at = NULL WHERE id = ${endpoint}`);
    await db.execute(sql`VACUUM ANALYZE webhook_deliveries, webhook_events, received_webhooks, webhook_attempts`);
    const runs: { perSecond: number; serverMsEach: number; postgresMsEach: number }[] = [];
    for (let run = 1; run <= RUNS; run++) {
      // Each run delivers the same events afresh: as not yet received, so each is verified, kept and NOTIFYed.
      await db.execute(sql`DELETE FROM received_webhooks WHERE endpoint_id = ${endpoint}`);
      const cpu = await cpuWindow([env.server!.process.pid!], env.databaseUrl);
      const t = performance.now();
      await db.execute(sql`UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = now(), attempts = 0 WHERE endpoint_id = ${endpoint}`);
      await deliveriesDrained(db, { endpoints: sql`w.id = ${endpoint}` });
      const seconds = (performance.now() - t) / 1000;
      const used = await cpu.stop();
      const delivered = await db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ${endpoint} AND state = 'delivered'`,
      );
      if (delivered.rows[0].n !== EVENTS) throw new Error(`${delivered.rows[0].n} of ${EVENTS} delivered`);
      const r = { perSecond: EVENTS / seconds, serverMsEach: used.serverMs / EVENTS, postgresMsEach: used.postgresMs / EVENTS };
      runs.push(r);
      console.log(
        `run ${run}: ${EVENTS} dashboard deliveries in ${fmt(seconds)} s = ${fmt(r.perSecond)}/s; CPU per delivery: server ${fmt(r.serverMsEach)} ms, PostgreSQL ${fmt(r.postgresMsEach)} ms`,
      );
    }
    writeResult('webhooks-dashboard-drain', { database: env.databaseLabel, events: EVENTS, runs });
  } finally {
    await pool.end();
    await env.close();
  }
}

await main();
