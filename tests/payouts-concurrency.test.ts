import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { createDb } from '../lib/db/client';
import { ServiceError } from '../lib/errors';
import { verifyLedger } from '../lib/ledger/verify-ledger';
import { createPayout } from '../lib/payouts/create-payout';
import { createCard, createTestBusiness, testDb } from './helpers';
import { businessBalance } from './ledger-helpers';
import { businessWithCard, cardBalance, fundCard, setFees } from './api/payouts-fixtures';

// The bank-style run lasts PAYOUT_STRESS_SECONDS; by default 30 s under CI or
// LONG_TESTS=1 (the figure the issue asks for), 5 s otherwise to keep local runs short.
const STRESS_SECONDS = Number(process.env.PAYOUT_STRESS_SECONDS ?? (process.env.CI || process.env.LONG_TESTS ? 30 : 5));

describe('concurrent payouts', () => {
  it('200 concurrent payouts of 100 from a card holding 10,000: exactly 100 succeed', async () => {
    const { biz, card } = await businessWithCard(10_000);
    const dest = await createCard(biz.test);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        biz.test.post('/api/v1/card/payouts', { card_number: card.card_number, destination_card_number: dest.card_number, amount: 100 }),
      ),
    );
    const byStatus = tallyAnswers(answers);
    expect(byStatus).toEqual({ '200 Payout initiated successfully': 100, '400 Insufficient balance': 100 });
    expect(await cardBalance(biz.test, card.card_number)).toBe(0);
    expect(await cardBalance(biz.test, dest.card_number)).toBe(10_000);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });

  it('a card cancelled while payouts pour into it and out of it never holds money again', async () => {
    const { biz, card: source } = await businessWithCard(100_000);
    const target = await createCard(biz.test);
    await fundCard(biz, target.card_number, 5_000);
    const businessBefore = await businessBalance(biz.id, 'test', 'ETB');
    const pay = (from: string, to: string) => biz.test.post('/api/v1/card/payouts', { card_number: from, destination_card_number: to, amount: 100 });
    // Workers keep paying into and out of the card until each is told it is gone, so payouts are in flight when the
    // cancellation commits; it is sent once both directions have moved money (a condition, not a delay: a fixed 150 ms
    // and a 50 ms window after it meant nothing on a loaded machine).
    const worker = async (from: string, to: string, answers: Awaited<ReturnType<typeof pay>>[]) => {
      for (;;) {
        const a = await pay(from, to);
        answers.push(a);
        if (a.status === 404) break;
      }
    };
    const ins: Awaited<ReturnType<typeof pay>>[] = [];
    const outs: Awaited<ReturnType<typeof pay>>[] = [];
    const moved = (answers: { status: number }[]) => answers.filter((a) => a.status === 200).length;
    const cancelling = vi
      .waitFor(
        () => {
          if (moved(ins) < 10 || moved(outs) < 3) throw new Error('not yet');
        },
        { timeout: 60_000, interval: 5 },
      )
      .then(() => biz.test.delete(`/api/v1/card/${target.card_number}`));
    const [cancel] = await Promise.all([
      cancelling,
      ...Array.from({ length: 6 }, () => worker(source.card_number, target.card_number, ins)),
      ...Array.from({ length: 3 }, () => worker(target.card_number, source.card_number, outs)),
    ]);
    expect(cancel.status).toBe(200);
    const inTally = tallyAnswers(ins);
    const outTally = tallyAnswers(outs);
    expect(
      Object.keys(inTally).every((k) => ['200 Payout initiated successfully', '404 Destination card not found'].includes(k)),
      JSON.stringify(inTally),
    ).toBe(true);
    expect(
      Object.keys(outTally).every((k) => ['200 Payout initiated successfully', '404 Gift card not found'].includes(k)),
      JSON.stringify(outTally),
    ).toBe(true);
    expect(inTally['404 Destination card not found'], 'payouts were still arriving when the card was cancelled').toBeGreaterThan(0);
    const inOk = inTally['200 Payout initiated successfully'] ?? 0;
    const outOk = outTally['200 Payout initiated successfully'] ?? 0;
    // Whatever reached the card before its cancellation was swept to the business; nothing after it.
    const target_ = await testDb().execute<{ balance: number; closed: boolean }>(
      sql`SELECT a.balance, a.closed_at IS NOT NULL AS closed FROM cards c JOIN ledger_accounts a ON a.id = c.account_id WHERE c.card_number = ${target.card_number}`,
    );
    expect(target_.rows[0]).toEqual({ balance: 0, closed: true });
    expect(await businessBalance(biz.id, 'test', 'ETB')).toBe(businessBefore + 5_000 + 100 * inOk - 100 * outOk);
    expect(await cardBalance(biz.test, source.card_number)).toBe(100_000 - 100 * inOk + 100 * outOk);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });

  it('the same Idempotency-Key sent 50 times at once moves money once; every answer is the same or a 409', async () => {
    const { biz, card } = await businessWithCard(5_000);
    const dest = await createCard(biz.test);
    const body = { card_number: card.card_number, destination_card_number: dest.card_number, amount: 1_000 };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => biz.test.post('/api/v1/card/payouts', body, { headers: { 'idempotency-key': 'same-key-for-fifty' } })),
    );
    const ok = answers.filter((a) => a.status === 200);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(ok.length + conflicts.length).toBe(50);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => JSON.stringify(a.body))).size).toBe(1);
    for (const c of conflicts) expect(c.body.message).toBe('Request in progress');
    expect(await cardBalance(biz.test, card.card_number)).toBe(4_000);
    expect(await cardBalance(biz.test, dest.card_number)).toBe(1_000);
    const replay = await biz.test.post('/api/v1/card/payouts', body, { headers: { 'idempotency-key': 'same-key-for-fifty' } });
    expect(replay.body).toEqual(ok[0].body);
    const rows = await testDb().execute(sql`SELECT 1 FROM payouts WHERE business_id = ${biz.id} AND payout_type = 'card_to_card'`);
    expect(rows.rows).toHaveLength(1);
  });

  describe(`bank-style: 32 workers for ${STRESS_SECONDS} s among 50 cards, with a fee`, () => {
    const { db, pool } = createDb(inject('databaseUrl'), 34);
    afterAll(() => pool.end());

    it(
      'conserves money exactly, never overdraws, and lets no deadlock reach a caller',
      async () => {
        const biz = await createTestBusiness();
        await setFees(biz, 'test', [{ applies_to: 'card_to_card', percent: 1, fixed: 5 }]);
        const cards: string[] = [];
        for (let i = 0; i < 50; i++) cards.push((await createCard(biz.test, 'USD')).card_number);
        await Promise.all(cards.map((c) => fundCard(biz, c, 20_000, 'USD')));
        const initial = 50 * 20_000;

        const outcomes = new Map<string, number>();
        const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
        const deadline = Date.now() + STRESS_SECONDS * 1000;
        // The time is a floor, not a bound: the run goes on until enough payouts have raced, however slow the machine.
        const worker = async () => {
          while (Date.now() < deadline || (outcomes.get('success') ?? 0) < 200) {
            const from = cards[Math.floor(Math.random() * 50)];
            let to = cards[Math.floor(Math.random() * 49)];
            if (to === from) to = cards[49];
            try {
              await createPayout(db, {
                businessId: biz.id,
                mode: 'test',
                actor: { type: 'system', id: 'stress' },
                input: {
                  card_number: from,
                  destination_card_number: to,
                  amount: 100 + Math.floor(Math.random() * 2_000),
                  charge_payer: Math.random() < 0.5 ? 'sender' : 'receiver',
                },
              });
              count('success');
            } catch (err) {
              count(err instanceof ServiceError ? err.code : `unexpected: ${err instanceof Error ? err.message : String(err)}`);
            }
          }
        };
        await Promise.all(Array.from({ length: 32 }, worker));

        const unexpected = [...outcomes.keys()].filter((k) => k !== 'success' && k !== 'insufficient_balance');
        expect(unexpected).toEqual([]);
        expect(outcomes.get('success')).toBeGreaterThan(0);
        const balances = await testDb().execute<{ total: number; lowest: number }>(sql`
        SELECT sum(a.balance)::bigint AS total, min(a.balance)::bigint AS lowest FROM cards c JOIN ledger_accounts a ON a.id = c.account_id
        WHERE c.business_id = ${biz.id} AND c.mode = 'test'`);
        const fees = await testDb().execute<{ total: number }>(sql`
        SELECT coalesce(sum(e.amount), 0)::bigint AS total FROM payouts p
        JOIN ledger_entries e ON e.transaction_id = p.transaction_id
        JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'fee_revenue'
        WHERE p.business_id = ${biz.id} AND p.payout_type = 'card_to_card'`);
        expect(Number(balances.rows[0].total) + Number(fees.rows[0].total)).toBe(initial);
        expect(Number(balances.rows[0].lowest)).toBeGreaterThanOrEqual(0);
        expect(Number(fees.rows[0].total)).toBeGreaterThan(0);
        expect((await verifyLedger(testDb())).problems).toEqual([]);
        console.log(`bank-style: ${JSON.stringify(Object.fromEntries(outcomes))} in ${STRESS_SECONDS} s`);
      },
      (STRESS_SECONDS + 120) * 1000,
    );
  });
});

/** How many answers came back with each status and message, e.g. { '200 Payout initiated successfully': 100 }. */
function tallyAnswers(answers: { status: number; body: { message?: unknown } }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[`${a.status} ${a.body.message}`] = (counts[`${a.status} ${a.body.message}`] ?? 0) + 1;
  return counts;
}
