import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { setExpiryPolicy } from '../../lib/business/expiry-policy';
import { createCard } from '../../lib/cards/create-card';
import { createDb, type Db } from '../../lib/db/client';
import { clearingAccountId } from '../../lib/ledger/accounts';
import { postTransaction } from '../../lib/ledger/post-transaction';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { randomPhone, waitFor } from '../helpers';
import { createScratchDatabase, startTestServer, type TestServer } from '../test-server';

const CARDS = 400;
const KILLS = 3;
const ADMIN_TOKEN = 'expiry-crash-admin-token-0123456789abcdef';
const API = { type: 'system' as const, id: 'tests' };

/**
 * A server whose expiry sweep runs every 20 ms is SIGKILLed (its whole process
 * group) three times while it expires 400 funded cards, then started again to
 * finish. Whatever transaction a kill cut short must have left nothing, and the
 * next sweep must do it once: one breakage movement and one card.expired per
 * card, breakage equal to what the cards held, a clean ledger.
 */
describe('SIGKILL during the expiry sweep', () => {
  let db: Db;
  let pool: { end: () => Promise<void> } | undefined;
  let server: TestServer | undefined;

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await pool?.end();
  });

  const expiredCount = async () => Number((await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM cards WHERE expired_at IS NOT NULL`)).rows[0].n);

  const start = async (url: string) =>
    startTestServer({ databaseUrl: url, adminToken: ADMIN_TOKEN, processGroup: true, env: { CARD_EXPIRY_SWEEP_MS: '20' }, loops: ['card-expiry'] });

  it('moves every balance to breakage exactly once and sends one card.expired per card', async () => {
    const url = await createScratchDatabase(inject('databaseUrl'), 'expiry_crash');
    ({ db, pool } = createDb(url, 4));
    server = await start(url);
    const made = await fetch(`${server.baseUrl}/api/admin/businesses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Expiry crash' }),
    });
    const businessId = (await made.json()).data.id as number;
    await setExpiryPolicy(db, businessId, API, { policy: 'after_issue', months: 1 });

    const deposits = await clearingAccountId(db, 'deposits', 'test', 'ETB');
    let held = 0;
    for (let i = 0; i < CARDS; i++) {
      const card = await createCard(db, { businessId, mode: 'test', actor: API, input: { phone_number: randomPhone(), currency: 'ETB', first_name: 'Crash' } });
      const amount = 100 + i;
      held += amount;
      const [row] = (await db.execute<{ account_id: number }>(sql`SELECT account_id FROM cards WHERE card_number = ${card.card_number}`)).rows;
      await db.transaction((tx) =>
        postTransaction(tx, {
          mode: 'test',
          kind: 'test_funding',
          businessId,
          actor: API,
          postings: [
            { accountId: deposits, amount: -amount },
            { accountId: Number(row.account_id), amount },
          ],
        }),
      );
    }

    await db.execute(sql`UPDATE cards SET expires_at = now() - interval '1 second' WHERE business_id = ${businessId}`);
    for (let kill = 1; kill <= KILLS; kill++) {
      const before = await expiredCount();
      // Killed once the sweep has made progress since the last start, mid-way through the cards.
      await waitFor(async () => ((await expiredCount()) > before ? true : undefined), 60_000);
      await server.stop('SIGKILL');
      const after = await expiredCount();
      console.log(`kill ${kill}: ${after} of ${CARDS} cards expired`);
      expect(after).toBeLessThan(CARDS);
      server = await start(url);
    }
    await waitFor(async () => ((await expiredCount()) === CARDS ? true : undefined), 60_000);
    await server.stop('SIGTERM');

    const perCard = await db.execute<{ moves: number; events: number; balance: number; expected: number }>(sql`
      SELECT (SELECT count(*)::int FROM ledger_transactions t WHERE t.kind = 'card_expiry' AND t.reference = c.card_number) AS moves,
             (SELECT count(*)::int FROM webhook_events e WHERE e.type = 'card.expired' AND e.subject_reference = c.card_number) AS events,
             a.balance
      FROM cards c JOIN ledger_accounts a ON a.id = c.account_id WHERE c.business_id = ${businessId}`);
    expect(perCard.rows).toHaveLength(CARDS);
    expect(perCard.rows.filter((r) => r.moves !== 1 || r.events !== 1 || Number(r.balance) !== 0)).toEqual([]);
    const breakage = await db.execute<{ balance: number }>(sql`SELECT balance FROM ledger_accounts WHERE kind = 'breakage' AND business_id = ${businessId}`);
    expect(Number(breakage.rows[0].balance)).toBe(held);
    expect((await verifyLedger(db)).problems).toEqual([]);
  }, 300_000);
});
