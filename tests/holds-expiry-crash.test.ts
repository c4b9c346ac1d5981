import { spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createBusiness } from '../lib/admin/businesses';
import { createCard } from '../lib/cards/create-card';
import { createDb, type Db } from '../lib/db/client';
import { expireHolds } from '../lib/holds/expire-holds';
import { placeTillHold } from '../lib/holds/place-till-hold';
import { clearingAccountId } from '../lib/ledger/accounts';
import { postTransaction } from '../lib/ledger/post-transaction';
import { verifyLedger } from '../lib/ledger/verify-ledger';
import { randomPhone, waitFor } from './helpers';
import { createScratchDatabase } from './test-server';

/**
 * SIGKILL of a process in the middle of the expiry sweep, then the sweep run
 * again: every hold ends expired exactly once, with one release and one
 * hold.expired event, and every card has all its money back.
 */

const ACTOR = { type: 'system', id: 'crash-test' } as const;
const CARDS = 8;
const HOLDS_PER_CARD = 40;
const HOLD = 150;

let url: string;
let db: Db;
let endPool: () => Promise<void>;

beforeAll(async () => {
  url = await createScratchDatabase(inject('databaseUrl'), 'holds_expiry_crash');
  const handle = createDb(url, 4);
  db = handle.db;
  endPool = () => handle.pool.end();
}, 120_000);

afterAll(async () => {
  await endPool?.();
});

const count = async (query: ReturnType<typeof sql>) => Number((await db.execute<{ n: number }>(query)).rows[0].n);

it('a sweep killed midway releases nothing twice and, run again, releases the rest', async () => {
  const biz = await createBusiness(db, { name: 'Expiry crash' });
  const deposits = await clearingAccountId(db, 'deposits', 'test', 'ETB');
  const cards: { number: string; accountId: number }[] = [];
  for (let i = 0; i < CARDS; i++) {
    const card = await createCard(db, {
      businessId: biz.id,
      mode: 'test',
      actor: ACTOR,
      input: { phone_number: randomPhone(), currency: 'ETB', first_name: 'Crash' },
    });
    const { rows } = await db.execute<{ account_id: number }>(sql`SELECT account_id FROM cards WHERE card_number = ${card.card_number}`);
    const accountId = Number(rows[0].account_id);
    await db.transaction((tx) =>
      postTransaction(tx, {
        mode: 'test',
        kind: 'test_funding',
        businessId: biz.id,
        actor: ACTOR,
        postings: [
          { accountId: deposits, amount: -HOLDS_PER_CARD * HOLD },
          { accountId, amount: HOLDS_PER_CARD * HOLD },
        ],
      }),
    );
    cards.push({ number: card.card_number, accountId });
    for (let j = 0; j < HOLDS_PER_CARD; j++) {
      await placeTillHold(db, { businessId: biz.id, mode: 'test', actor: ACTOR, cardNumber: card.card_number, amount: HOLD, expires_in_seconds: 60 });
    }
  }
  const total = CARDS * HOLDS_PER_CARD;
  await db.execute(sql`UPDATE holds SET expires_at = now() - interval '1 second' WHERE business_id = ${biz.id}`);
  const expired = sql`SELECT count(*)::int AS n FROM holds WHERE business_id = ${biz.id} AND outcome = 'expired'`;

  // node itself with tsx's loader, one process: the tsx command would run the sweep in a child that SIGKILL does not reach.
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/expire-holds.ts'], {
    env: { ...process.env, DATABASE_URL: url, PGAPPNAME: 'expire-holds-killed' },
    stdio: 'ignore',
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_, signal) => resolve(signal)));
  await waitFor(async () => ((await count(expired)) >= 20 ? true : undefined), 60_000);
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  // A COMMIT sent just before the kill may still be applied: wait until PostgreSQL has closed the dead process's sessions.
  await waitFor(async () =>
    (await count(sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'expire-holds-killed'`)) === 0 ? true : undefined,
  );
  const atKill = await count(expired);
  console.log(`expiry sweep killed after ${atKill} of ${total} holds`);
  expect(atKill).toBeLessThan(total);

  // What the killed process committed is whole: each expired hold has its release and its event, the others have neither.
  const releases = sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE business_id = ${biz.id} AND kind = 'hold_release'`;
  const events = sql`SELECT count(*)::int AS n FROM webhook_events WHERE business_id = ${biz.id} AND type = 'hold.expired'`;
  expect([await count(releases), await count(events)]).toEqual([atKill, atKill]);

  while (await expireHolds(db)) {}
  expect(await count(expired)).toBe(total);
  const perHold = await db.execute<{ releases: number; events: number }>(sql`
    SELECT (SELECT count(*) FROM ledger_transactions t WHERE t.reference = h.reference AND t.kind = 'hold_release')::int AS releases,
           (SELECT count(*) FROM webhook_events e WHERE e.subject_reference = h.reference AND e.type = 'hold.expired')::int AS events
    FROM holds h WHERE h.business_id = ${biz.id}`);
  expect(perHold.rows.every((r) => Number(r.releases) === 1 && Number(r.events) === 1)).toBe(true);
  const balances = await db.execute<{ balance: number }>(sql`
    SELECT a.balance FROM cards c JOIN ledger_accounts a ON a.id = c.account_id WHERE c.business_id = ${biz.id}`);
  expect(balances.rows.map((r) => Number(r.balance))).toEqual(Array(CARDS).fill(HOLDS_PER_CARD * HOLD));
  expect((await verifyLedger(db)).problems).toEqual([]);
}, 180_000);
