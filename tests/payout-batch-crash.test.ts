import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { businessWithCard, cardBalance, fundCard } from './api/payouts-fixtures';
import { apiClient, createCard, testDb, type ApiClient, type TestBusiness } from './helpers';
import { startTestServer, type TestServer } from './test-server';

/**
 * A payout batch commits ten items to a transaction here (PAYOUT_BATCH_ITEMS_PER_COMMIT). A server SIGKILLed
 * between two of those commits, and a retry with the same Idempotency-Key
 * and body to a new server on the same database: the retry answers the whole
 * batch as one run would have, and the database holds exactly one run's
 * payouts, balances and events. The batch is stopped there without timing:
 * the test holds the lock of a card the second ten need.
 */

interface Party {
  biz: TestBusiness;
  cards: Record<'a' | 'b' | 'c' | 'd', string>;
}

/** Two funded sources (a, c) and two destinations (b, d). */
async function party(): Promise<Party> {
  const { biz, card } = await businessWithCard(100_000);
  const c = (await createCard(biz.test)).card_number;
  await fundCard(biz, c, 100_000);
  return { biz, cards: { a: card.card_number, b: (await createCard(biz.test)).card_number, c, d: (await createCard(biz.test)).card_number } };
}

/** One bad row, then 25 payouts: ten a to b (the last refused), ten c to d (the last a bank payout from c), five a to d. */
function batchBody({ cards: { a, b, c, d } }: Party) {
  const payouts: unknown[] = ['not an object'];
  for (let i = 0; i < 9; i++) payouts.push({ card_number: a, destination_card_number: b, amount: 100 + i });
  payouts.push({ card_number: a, destination_card_number: b, amount: 10_000_000 });
  for (let i = 0; i < 9; i++) payouts.push({ card_number: c, destination_card_number: d, amount: 200 + i });
  payouts.push({ card_number: c, amount: 300, bank_slug: 'cbe', account_number: '1000123456123', account_name: 'Abebe Kebede' });
  for (let i = 0; i < 5; i++) payouts.push({ card_number: a, destination_card_number: d, amount: 150 + i });
  return { payouts };
}

/** An answer with its business's card numbers named and its random references blanked, to compare two businesses' runs. */
function comparable(p: Party, body: unknown): string {
  let text = JSON.stringify(body).replace(/"(initiator_reference|provider_reference)":"[^"]+"/g, '"$1":"ref"');
  for (const [name, number] of Object.entries(p.cards)) text = text.replaceAll(number, name);
  return text;
}

/** What a run left in the database: balances, payouts (by type and status, once each) and events. */
async function footprint(p: Party) {
  const balances = Object.fromEntries(await Promise.all(Object.entries(p.cards).map(async ([n, c]) => [n, await cardBalance(p.biz.test, c)])));
  const payouts = await testDb().execute<{ payout_type: string; status: string; n: number; amount: number }>(sql`
    SELECT payout_type, status, count(*)::int AS n, sum(amount)::bigint AS amount FROM payouts
    WHERE business_id = ${p.biz.id} AND mode = 'test' AND account_name IS DISTINCT FROM 'Top-up'
    GROUP BY 1, 2 ORDER BY 1, 2`);
  const events = await testDb().execute<{ type: string; n: number }>(sql`
    SELECT type, count(*)::int AS n FROM webhook_events WHERE business_id = ${p.biz.id} GROUP BY type ORDER BY type`);
  return { balances, payouts: payouts.rows.map((r) => ({ ...r, amount: Number(r.amount) })), events: events.rows };
}

const keyRow = async (key: string) =>
  (
    await testDb().execute<{ state: string; committed_result: Record<string, unknown> | null; response_body: string | null }>(
      sql`SELECT state, committed_result, response_body FROM idempotency_keys WHERE key = ${key}`,
    )
  ).rows[0];

/** The claim as a minute's wait leaves it: the first run's claim is old enough to be taken as dead. */
const ageClaim = (key: string) =>
  testDb().execute(
    sql`UPDATE idempotency_keys SET created_at = created_at - interval '2 minutes', last_committed_at = last_committed_at - interval '2 minutes' WHERE key = ${key}`,
  );

let server: TestServer | undefined;
// The batch below is laid out in chunks of ten (the server's default is 25): pinned, so the crash falls between two commits.
const startOwnServer = () =>
  startTestServer({ databaseUrl: inject('databaseUrl'), adminToken: inject('adminToken'), processGroup: true, env: { PAYOUT_BATCH_ITEMS_PER_COMMIT: '10' } });

afterAll(async () => {
  await server?.stop();
});

describe('a payout batch cut off between two commits', () => {
  let twin: Party;
  let twinAnswer: unknown;
  beforeAll(async () => {
    // The same batch sent once, uncut, by a business of its own: what one run answers and leaves.
    twin = await party();
    const res = await twin.biz.test.post('/api/v1/card/payouts/batch', batchBody(twin), { headers: { 'idempotency-key': randomUUID() } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    twinAnswer = res.body;
  });

  it('is finished by a retry on a new server: every item once, answered as one run would have', async () => {
    const p = await party();
    const key = `batch-crash-${randomUUID()}`;
    const body = batchBody(p);
    server = await startOwnServer();
    const api = (s: TestServer): ApiClient => apiClient(p.biz.keys.test, s.baseUrl);

    // Hold card c's account: the batch's second transaction locks it first, so the batch stops right after its first commit.
    const blocker = new pg.Client({ connectionString: inject('databaseUrl') });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query(`SELECT id FROM ledger_accounts WHERE id = (SELECT account_id FROM cards WHERE card_number = $1) FOR UPDATE`, [p.cards.c]);
    const cut = api(server)
      .post('/api/v1/card/payouts/batch', body, { headers: { 'idempotency-key': key } })
      .catch((err: unknown) => err);
    await expect.poll(async () => Object.keys((await keyRow(key))?.committed_result ?? {}).length, { timeout: 30_000, interval: 20 }).toBe(10);
    await expect
      .poll(
        async () =>
          (
            await blocker.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%' AND pid <> pg_backend_pid()`,
            )
          ).rows[0].n,
        { timeout: 30_000, interval: 20 },
      )
      .toBeGreaterThan(0);
    await server.stop('SIGKILL');
    await blocker.query('ROLLBACK');
    await blocker.end();
    expect(await cut).toBeInstanceOf(Error);

    // The first ten are committed and recorded, nothing after them; the answer was never stored.
    const dead = await keyRow(key);
    expect(dead.state).toBe('committed');
    expect(dead.response_body).toBeNull();
    expect(Object.keys(dead.committed_result!).sort((x, y) => Number(x) - Number(y))).toEqual(Array.from({ length: 10 }, (_, i) => String(i)));
    expect(dead.committed_result!['9']).toMatchObject({ code: 'insufficient_balance' });
    const paid = await testDb().execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM payouts WHERE business_id = ${p.biz.id} AND source_card_number = ${p.cards.c}`,
    );
    expect(paid.rows[0].n).toBe(0);

    server = await startOwnServer();
    const retry = () => api(server!).post('/api/v1/card/payouts/batch', body, { headers: { 'idempotency-key': key } });
    // The claim is fresh: the first run might still be alive, so nobody answers for it yet.
    const early = await retry();
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Request in progress');
    // A different body under the key is still refused as such.
    expect(
      (await api(server).post('/api/v1/card/payouts/batch', { payouts: body.payouts.slice(1) }, { headers: { 'idempotency-key': key } })).body.message,
    ).toBe('Idempotency key reused');

    await ageClaim(key);
    // Two retries at once: exactly one takes the dead run over; the other is told to wait, or replays the stored answer.
    const [one, two] = await Promise.all([retry(), retry()]);
    const answered = [one, two].filter((r) => r.status === 200);
    expect(answered.length).toBeGreaterThan(0);
    for (const r of [one, two]) expect([200, 409]).toContain(r.status);
    const resumed = answered[0];
    for (const r of answered) expect(r.body).toEqual(resumed.body);
    expect(resumed.headers.get('idempotent-replayed')).toBe('true');
    expect(resumed.body.data.results).toHaveLength(body.payouts.length);
    expect(comparable(p, resumed.body)).toBe(comparable(twin, twinAnswer));

    // Stored, and replayed as it is.
    expect((await keyRow(key)).state).toBe('done');
    const again = await retry();
    expect(again.status).toBe(200);
    expect(again.body).toEqual(resumed.body);

    // One run's worth of money, rows and events: the same as the twin's, every answered payout once.
    expect(await footprint(p)).toEqual(await footprint(twin));
    const references = resumed.body.data.results.flatMap((r: Record<string, string>) => r.initiator_reference ?? r.provider_reference ?? []);
    expect(references).toHaveLength(24);
    const rows = await testDb().execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM payouts WHERE business_id = ${p.biz.id} AND reference = ANY(${`{${references.join(',')}}`}::text[])`,
    );
    expect(rows.rows[0].n).toBe(24);
  }, 180_000);

  it('whose every item committed but whose answer was lost is answered from the records, moving nothing', async () => {
    const p = await party();
    const key = `batch-lost-${randomUUID()}`;
    const body = batchBody(p);
    const first = await p.biz.test.post('/api/v1/card/payouts/batch', body, { headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    const before = await footprint(p);
    // As a process killed after the last commit leaves the key: committed, no answer, the claim a dead run's.
    await testDb().execute(sql`UPDATE idempotency_keys SET state = 'committed', response_status = NULL, response_body = NULL WHERE key = ${key}`);
    expect(Object.keys((await keyRow(key)).committed_result!)).toHaveLength(25);
    expect((await p.biz.test.post('/api/v1/card/payouts/batch', body, { headers: { 'idempotency-key': key } })).status).toBe(409);
    await ageClaim(key);

    const retry = await p.biz.test.post('/api/v1/card/payouts/batch', body, { headers: { 'idempotency-key': key } });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(await footprint(p)).toEqual(before);
    expect((await p.biz.test.post('/api/v1/card/payouts/batch', body, { headers: { 'idempotency-key': key } })).body).toEqual(first.body);
  });
});
