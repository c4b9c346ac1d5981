import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createDb } from '../../lib/db/client';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../lib/db/embedded';
import { applyMigrations } from '../../lib/db/migrate';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { ensureProductionBuild, freePort, startTestServer, type TestServer } from '../../tests/test-server';

export interface CrashTestOptions {
  clients?: number;
  kills?: number;
  /** Which kill also stops PostgreSQL with an immediate shutdown (SIGQUIT to the postmaster). */
  postgresKillAt?: number[];
  log?: (line: string) => void;
}

export interface CrashTestResult {
  clients: number;
  server_kills: number;
  postgres_immediate_shutdowns: number;
  seconds: number;
  requests: number;
  succeeded: number;
  refused: number;
  refused_by_answer: Record<string, number>;
  /** Requests whose answer was lost with the process and whose key stayed "in progress": at most one entry each. */
  undecided: number;
  undecided_that_committed: number;
  payouts_in_db: number;
  duplicates: string[];
  orphans: string[];
  missing: string[];
  refused_with_entry: string[];
  missing_events: string[];
  ledger_problems: string[];
  ok: boolean;
}

const ADMIN = 'adm_crash_bench_token_0123456789abcdef';
type Op = 'transfer' | 'card_to_card' | 'b2b' | 'bank';
interface Sent {
  id: number;
  op: Op;
  amount: number;
  outcome: 'success' | 'refused' | 'undecided';
  reference?: string;
  status?: number;
  message?: string;
}

/** Payouts each server life takes before it is killed. */
export const PROGRESS_PER_LIFE = 12;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * 16 clients send payouts and top-ups with Idempotency-Keys, retrying on lost
 * answers, while the server is SIGKILLed 10 times and PostgreSQL is stopped
 * with an immediate shutdown. Each request's amount is unique, so every payout
 * row can be traced to the one request that made it.
 */
export async function runCrashTest(opts: CrashTestOptions = {}): Promise<CrashTestResult> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const clients = opts.clients ?? 16;
  const kills = opts.kills ?? 10;
  const pgKills = new Set(opts.postgresKillAt ?? [4]);
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftcard-crash-'));
  let pg: EmbeddedDatabase = await startEmbeddedPostgres(dir);
  let url = pg.url;
  await applyMigrations(url);
  ensureProductionBuild();
  const port = await freePort();
  const env = { TEST_SETTLE_AFTER_MS: '300', RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' };
  const start = () => startTestServer({ databaseUrl: url, adminToken: ADMIN, port, processGroup: true, env });
  let server: TestServer = await start();
  const base = `http://127.0.0.1:${port}`;
  let pgShutdowns = 0;
  try {
    const post = async (key: string, p: string, body: unknown, idem?: string) => {
      const res = await fetch(`${base}${p}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(idem && { 'idempotency-key': idem }) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      try {
        return { status: res.status, body: JSON.parse(text), text };
      } catch {
        return { status: res.status, body: undefined, text };
      }
    };
    const biz = (await post(ADMIN, '/api/admin/businesses', { name: 'Crash' })).body.data;
    const merchant = (await post(ADMIN, '/api/admin/businesses', { name: 'Crash merchant' })).body.data;
    await post(ADMIN, `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 100_000_000_000 });
    const key = biz.api_keys.test as string;
    const cards: string[] = [];
    for (let i = 0; i < clients; i++) {
      const phone = `+2519${randomInt(1, 10)}${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
      const card = await post(key, '/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Crash' });
      cards.push(card.body.data.card_number);
      await post(key, '/api/v1/transfers', { amount: 1_000_000_000 + i, bank_slug: 'link', account_number: card.body.data.card_number, account_name: 'Seed' });
    }

    const sent: Sent[] = [];
    let nextId = 0;
    let succeeded = 0;
    let running = true;
    // Amounts 100 + id stay far below the seed top-ups (10^9 + i): every payout row maps to one request.
    const client = async () => {
      while (running) {
        const id = nextId++;
        const amount = 100 + id;
        const op = (['transfer', 'card_to_card', 'b2b', 'bank'] as const)[randomInt(0, 4)];
        const src = cards[randomInt(0, cards.length)];
        let dst = cards[randomInt(0, cards.length)];
        if (dst === src) dst = cards[(cards.indexOf(src) + 1) % cards.length];
        const [p, body] =
          op === 'transfer'
            ? ['/api/v1/transfers', { amount, bank_slug: 'link', account_number: dst, account_name: 'Top-up' }]
            : op === 'card_to_card'
              ? ['/api/v1/card/payouts', { card_number: src, destination_card_number: dst, amount }]
              : op === 'b2b'
                ? ['/api/v1/card/payouts', { card_number: src, merchant_id: merchant.merchant_id, amount }]
                : [
                    '/api/v1/card/payouts',
                    {
                      card_number: src,
                      amount,
                      bank_slug: 'cbe',
                      account_number: randomInt(0, 10) === 0 ? '1234567890000' : '1234567812345',
                      account_name: 'Bank',
                    },
                  ];
        const s: Sent = { id, op, amount, outcome: 'undecided' };
        sent.push(s);
        const idem = `crash-${id}`;
        // Retry the same key until a definite answer; a key left "in progress" by a killed process stays undecided.
        let inProgress = 0;
        for (let attempt = 0; attempt < 400 && inProgress < 30; attempt++) {
          try {
            const res = await post(key, p as string, body, idem);
            s.status = res.status;
            s.message = res.body?.message ?? `not JSON: ${res.text.slice(0, 80)}`;
            if (res.status >= 200 && res.status < 300) {
              s.outcome = 'success';
              succeeded++;
              s.reference = res.body.data.provider_reference ?? res.body.data.initiator_reference;
              break;
            }
            if (res.status === 409 && res.body?.message === 'Request in progress') inProgress++;
            else if (res.status >= 400 && res.status < 500) {
              s.outcome = 'refused';
              break;
            }
          } catch {
            /* connection refused or reset: the server is down */
          }
          await sleep(100);
        }
      }
    };
    const workers = Array.from({ length: clients }, client);

    // Each kill waits for the server to have taken payouts since it came back, not for a time: on a busy machine a
    // fixed schedule could kill a server before it answered anything, and the run would test restarts, not payouts.
    const progressSince = async (before: number, k: number) => {
      const deadline = Date.now() + 120_000;
      while (succeeded < before + PROGRESS_PER_LIFE) {
        if (Date.now() > deadline) throw new Error(`crash ${k}: the server took no ${PROGRESS_PER_LIFE} payouts in two minutes after its restart`);
        await sleep(50);
      }
    };
    for (let k = 0; k < kills; k++) {
      const before = succeeded;
      await sleep(randomInt(1_000, 3_500));
      await progressSince(before, k);
      if (pgKills.has(k)) {
        const pid = Number(fs.readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
        process.kill(pid, 'SIGQUIT');
        pgShutdowns++;
        log(`crash ${k + 1}: PostgreSQL stopped with an immediate shutdown (pid ${pid})`);
        await sleep(1_500);
        await server.stop('SIGKILL');
        pg = await startEmbeddedPostgres(dir);
        url = pg.url;
      } else {
        await server.stop('SIGKILL');
      }
      log(`crash ${k + 1}: server SIGKILLed after ${sent.length} requests; restarting`);
      server = await start();
    }
    await progressSince(succeeded, kills);
    running = false;
    await Promise.all(workers);

    const { db, pool } = createDb(url, 4);
    try {
      // Pending bank payouts and top-ups settle by themselves (TEST_SETTLE_AFTER_MS=300).
      for (let i = 0; i < 300; i++) {
        const { rows } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM payouts WHERE status = 'pending'`);
        if (rows[0].n === 0) break;
        await sleep(200);
      }
      const { rows } = await db.execute<{ reference: string; amount: number; status: string; events: number; event_type: string | null }>(sql`
        SELECT p.reference, p.amount::bigint AS amount, p.status,
               (SELECT count(*)::int FROM webhook_events e WHERE e.subject_reference = p.reference AND e.type LIKE 'payout.%') AS events,
               (SELECT min(e.type) FROM webhook_events e WHERE e.subject_reference = p.reference AND e.type LIKE 'payout.%') AS event_type
        FROM payouts p WHERE p.business_id = ${biz.id} AND p.amount < 1000000000`);
      const byAmount = new Map<number, typeof rows>();
      for (const r of rows) byAmount.set(Number(r.amount), [...(byAmount.get(Number(r.amount)) ?? []), r]);
      const byId = new Map(sent.map((s) => [100 + s.id, s]));
      const duplicates = [...byAmount].filter(([, list]) => list.length > 1).map(([a]) => `amount ${a}`);
      const orphans = rows.filter((r) => !byId.has(Number(r.amount))).map((r) => r.reference);
      const missing = sent
        .filter((s) => s.outcome === 'success' && byAmount.get(s.amount)?.[0]?.reference !== s.reference)
        .map((s) => `${s.op} ${s.reference}`);
      const refusedWithEntry = sent.filter((s) => s.outcome === 'refused' && byAmount.has(s.amount)).map((s) => `${s.op} ${s.amount} (${s.status})`);
      const missingEvents = rows
        .filter((r) => r.status !== 'pending' && !(r.events === 1 && r.event_type === `payout.${r.status}`))
        .map((r) => `${r.reference} ${r.status}: ${r.events} events`);
      const pendingLeft = rows.filter((r) => r.status === 'pending').map((r) => `${r.reference} still pending`);
      const ledger = await verifyLedger(db);
      const undecided = sent.filter((s) => s.outcome === 'undecided');
      const result: CrashTestResult = {
        clients,
        server_kills: kills,
        postgres_immediate_shutdowns: pgShutdowns,
        seconds: (Date.now() - started) / 1000,
        requests: sent.length,
        succeeded: sent.filter((s) => s.outcome === 'success').length,
        refused: sent.filter((s) => s.outcome === 'refused').length,
        refused_by_answer: sent
          .filter((s) => s.outcome === 'refused')
          .reduce<Record<string, number>>((acc, s) => {
            const key = `${s.status} ${s.message}`;
            acc[key] = (acc[key] ?? 0) + 1;
            return acc;
          }, {}),
        undecided: undecided.length,
        undecided_that_committed: undecided.filter((s) => byAmount.has(s.amount)).length,
        payouts_in_db: rows.length,
        duplicates,
        orphans,
        missing,
        refused_with_entry: refusedWithEntry,
        missing_events: [...missingEvents, ...pendingLeft],
        ledger_problems: ledger.problems,
        ok: false,
      };
      result.ok = [duplicates, orphans, missing, refusedWithEntry, result.missing_events, ledger.problems].every((l) => l.length === 0) && result.succeeded > 0;
      return result;
    } finally {
      await pool.end();
    }
  } finally {
    await server.stop();
    await pg.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
