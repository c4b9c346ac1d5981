import { sql } from 'drizzle-orm';
import { createBusiness } from '../../lib/admin/businesses';
import type { Stop } from '../../lib/background-loop';
import { createDb, type Db } from '../../lib/db/client';
import { queueCardMessages } from '../../lib/messages/queue-message';
import { startCardholderMessages } from '../../lib/messages/send-messages';
import { afroMessageEnv, startAfroMessageFake } from '../../tests/afromessage-harness';
import { fmt, openBenchEnv, writeResult } from '../bench-env';
import { seedCards } from '../seed-cards';

/**
 * Messages to cardholders through the job queue against tools/afromessage-fake (its own process, real HTTP):
 * MESSAGES new_link SMS are queued in one statement, then 1 and then WORKERS `cardholder_message` workers (each the
 * production loop, startCardholderMessages, in this process) send them; it prints messages per second for each. The
 * seeded cards are test-mode rows switched to live (only the message's mode matters here: test mode sends nothing).
 * Run alone: `npx tsx bench/messages/run.ts` (BENCH_MESSAGES, BENCH_MESSAGE_WORKERS to resize).
 */
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2_000);
const WORKERS = Number(process.env.BENCH_MESSAGE_WORKERS ?? 4);

async function round(db: Db, businessId: number, workers: number): Promise<{ queue_ms: number; messages_per_s: number }> {
  const t0 = performance.now();
  await queueCardMessages(db, sql`SELECT id, '{"link_url": "https://gift.example.com/c/bench"}'::jsonb FROM cards WHERE business_id = ${businessId}`, {
    kind: 'new_link',
    only: 'sms',
  });
  const queueMs = performance.now() - t0;
  const started = performance.now();
  const stops: Stop[] = Array.from({ length: workers }, () => startCardholderMessages(db));
  for (;;) {
    const { rows } = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM cardholder_messages WHERE business_id = ${businessId} AND status = 'queued'`,
    );
    if (rows[0].n === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(stops.map((s) => s()));
  const failed = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM cardholder_messages WHERE business_id = ${businessId} AND status <> 'sent'`,
  );
  if (failed.rows[0].n > 0) throw new Error(`${failed.rows[0].n} messages did not end sent`);
  return { queue_ms: Number(fmt(queueMs)), messages_per_s: Math.round(MESSAGES / seconds) };
}

async function main() {
  const env = await openBenchEnv();
  const fake = await startAfroMessageFake();
  Object.assign(process.env, afroMessageEnv(fake.url), { MESSAGE_POLL_MS: '20' });
  await fetch(`${fake.url}/__fake/switches`, { method: 'POST', body: JSON.stringify({ callbackStatus: { '*': 'off' } }) });
  const { db, pool } = createDb(env.databaseUrl, 4 + WORKERS);
  try {
    const rounds: Record<string, { queue_ms: number; messages_per_s: number }> = {};
    for (const workers of [1, WORKERS]) {
      const biz = await createBusiness(db, { name: `Messages bench ${workers} ${Date.now()}` });
      await seedCards(db, biz.id, MESSAGES);
      await db.execute(sql`UPDATE cards SET mode = 'live' WHERE business_id = ${biz.id}`);
      // seedCards tags its phones to keep them unique: a number AfroMessage would take.
      await db.execute(sql`UPDATE customers SET phone_number = '+2519' || lpad((id % 100000000)::text, 8, '0')
                           WHERE id IN (SELECT customer_id FROM cards WHERE business_id = ${biz.id})`);
      rounds[`workers_${workers}`] = await round(db, biz.id, workers);
    }
    const received = ((await (await fetch(`${fake.url}/__fake/state`)).json()) as { messages: unknown[] }).messages.length;
    const result = { database: env.databaseLabel, messages: MESSAGES, ...rounds, fake_received: received };
    console.log(
      `cardholder messages: ${MESSAGES} SMS queued in ${rounds.workers_1.queue_ms} ms; sent at ${rounds.workers_1.messages_per_s}/s by 1 worker, ` +
        `${rounds[`workers_${WORKERS}`].messages_per_s}/s by ${WORKERS} (ratio ${fmt(rounds[`workers_${WORKERS}`].messages_per_s / rounds.workers_1.messages_per_s)}); the fake received ${received}`,
    );
    writeResult('messages', result);
  } finally {
    await pool.end();
    await fake.stop();
    await env.close();
  }
}

await main();
