import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../lib/db/client';
import { ServiceError } from '../lib/errors';
import { setLimits } from '../lib/limits/business-limits';
import { completePayment } from '../lib/payments/complete-payment';
import { createPayout } from '../lib/payouts/create-payout';
import { cardBalance, fundCard, ledgerBalance } from './api/payouts-fixtures';
import { createCard, createTestBusiness, testDb } from './helpers';

/** The core against PostgreSQL, without HTTP: 50 payouts or completions on 50 connections at once. */
const { db, pool } = createDb(inject('databaseUrl'), 50);
afterAll(() => pool.end());
const actor = { type: 'system' as const, id: 'limits-concurrency-test' };
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'paid',
    (err) => (err instanceof ServiceError ? err.code : String(err)),
  );

describe('limits against PostgreSQL under 50 concurrent requests', () => {
  it('daily_payout: payouts of different sizes from 50 cards never pass the day’s limit, and the total matches the ledger', async () => {
    const biz = await createTestBusiness();
    const sources = await Promise.all(Array.from({ length: 50 }, () => createCard(biz.test)));
    const target = await createCard((await createTestBusiness()).test);
    for (const s of sources) await fundCard(biz, s.card_number, 5_000);
    await setLimits(db, { businessId: biz.id, actor, defaultMode: 'test', input: { currency: 'ETB', daily_payout: 25_000, max_payout: 4_000 } });
    const amounts = sources.map((_, i) => 100 + ((i * 997) % 4_500));
    const results = await Promise.all(
      sources.map((s, i) =>
        outcome(
          createPayout(db, {
            businessId: biz.id,
            mode: 'test',
            actor,
            input: { card_number: s.card_number, destination_card_number: target.card_number, amount: amounts[i] },
          }),
        ),
      ),
    );
    const paid = amounts.filter((_, i) => results[i] === 'paid');
    expect(results.filter((r) => r !== 'paid' && r !== 'limit_exceeded')).toEqual([]);
    expect(amounts.filter((a, i) => a > 4_000 && results[i] === 'paid')).toEqual([]);
    const sum = paid.reduce((a, b) => a + b, 0);
    expect(sum).toBeLessThanOrEqual(25_000);
    expect(sum).toBeGreaterThan(25_000 - 4_000);
    const total = await testDb().execute<{ total: number }>(sql`SELECT total FROM payout_day_totals WHERE business_id = ${biz.id} AND mode = 'test'`);
    expect(Number(total.rows[0].total)).toBe(sum);
    const received = await testDb().execute<{ balance: number }>(
      sql`SELECT a.balance FROM cards c JOIN ledger_accounts a ON a.id = c.account_id WHERE c.card_number = ${target.card_number}`,
    );
    expect(Number(received.rows[0].balance)).toBe(sum);
  });

  it('max_card_balance: 50 payments completing at once into one card fill it to the limit and leave the rest on the business account', async () => {
    const biz = await createTestBusiness();
    const card = await createCard(biz.test);
    const links = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const res = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 1_000, card_number: card.card_number });
        expect(res.status).toBe(201);
        return res.body.data.link_reference as string;
      }),
    );
    await setLimits(db, { businessId: biz.id, actor, defaultMode: 'test', input: { currency: 'ETB', max_card_balance: 12_500 } });
    const done = await Promise.all(links.map((linkReference) => completePayment(db, { linkReference, outcome: 'success', actor })));
    expect(done.every((d) => d.changed && d.payment.status === 'success')).toBe(true);
    expect(await cardBalance(biz.test, card.card_number)).toBe(12_000);
    expect(await ledgerBalance(`business:${biz.id}`, 'test', 'ETB')).toBe(50_000 - 12_000);
  });
});
