import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { createDb } from '../lib/db/client';
import type { Tx } from '../lib/db/client';
import { withCommitHook } from '../lib/db/commit-hooks';
import { ServiceError } from '../lib/errors';
import { createPayout } from '../lib/payouts/create-payout';
import { businessWithCard, cardBalance, setFees } from './api/payouts-fixtures';
import { createCard, testDb } from './helpers';

/**
 * This test process remembers the cards and fee rules its payouts read
 * (lib/payouts/payout-parties.ts). Each case changes one through the API (the
 * server, another process) after it was remembered here, and expects the
 * answer a fresh read gives.
 */
const actor = { type: 'system' as const, id: 'payout-memory-test' };
const pay = (businessId: number, input: Record<string, unknown>) => createPayout(testDb(), { businessId, mode: 'test', actor, input });
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'paid',
    (err) => (err instanceof ServiceError ? err.code : String(err)),
  );

describe('payouts from remembered cards and fees', () => {
  it('read again when memory gave the answer: a fee lowered since, a source disabled since', async () => {
    const { biz, card } = await businessWithCard(10_000);
    const from = card.card_number;
    const to = (await createCard(biz.test)).card_number;
    const usd = (await createCard(biz.test, 'USD')).card_number;
    await setFees(biz, 'test', [{ applies_to: 'card_to_card', fixed: 150 }]);
    expect(await outcome(pay(biz.id, { card_number: from, destination_card_number: to, amount: 500, charge_payer: 'receiver' }))).toBe('paid');
    expect(await outcome(pay(biz.id, { card_number: from, destination_card_number: usd, amount: 500 }))).toBe('currency_mismatch');

    await setFees(biz, 'test', [{ applies_to: 'card_to_card', fixed: 10 }]);
    // Memory still holds the fee of 150, which 100 does not cover.
    expect(await outcome(pay(biz.id, { card_number: from, destination_card_number: to, amount: 100, charge_payer: 'receiver' }))).toBe('paid');
    expect(await cardBalance(biz.test, to)).toBe(350 + 90);

    // Memory says the source is active, and the currencies differ.
    await biz.test.patch(`/api/v1/card/${from}`, { status: 'disable' });
    expect(await outcome(pay(biz.id, { card_number: from, destination_card_number: usd, amount: 100 }))).toBe('card_disabled');
  });

  it('answer for a disabled source before a destination cancelled since', async () => {
    const { biz, card } = await businessWithCard(10_000);
    const to = (await createCard(biz.test)).card_number;
    expect(await outcome(pay(biz.id, { card_number: card.card_number, destination_card_number: to, amount: 100 }))).toBe('paid');
    await biz.test.patch(`/api/v1/card/${card.card_number}`, { status: 'disable' });
    await biz.test.delete(`/api/v1/card/${to}`);
    expect(await outcome(pay(biz.id, { card_number: card.card_number, destination_card_number: to, amount: 100 }))).toBe('card_disabled');
  });

  // With an Idempotency-Key, the key is marked inside the payout's transaction: a refusal must not commit that mark.
  it('roll back the transaction of a refused payout, commit hook and all', async () => {
    const { biz, card } = await businessWithCard(1_000);
    const to = (await createCard(biz.test)).card_number;
    const marker = `hook-${randomUUID()}`;
    const hook = async (tx: Tx) => {
      await tx.execute(sql`INSERT INTO audit_log (actor_type, action, target) VALUES ('system', 'test.commit_hook', ${marker})`);
    };
    const marks = async () => (await testDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log WHERE target = ${marker}`)).rows[0].n;
    const payWithHook = (amount: number) => withCommitHook(hook, () => pay(biz.id, { card_number: card.card_number, destination_card_number: to, amount }));

    expect(await outcome(payWithHook(5_000))).toBe('insufficient_balance');
    expect(await outcome(payWithHook(5_000))).toBe('insufficient_balance');
    expect(await marks()).toBe(0);
    expect(await outcome(payWithHook(500))).toBe('paid');
    expect(await marks()).toBe(1);
  });
});

describe('a fee schedule edited under every attempt', () => {
  it('answers unavailable after three refused statements and moves nothing', async () => {
    const { biz, card } = await businessWithCard(10_000);
    const to = (await createCard(biz.test)).card_number;
    await setFees(biz, 'test', [{ applies_to: 'card_to_card', fixed: 10 }]);
    // A pool of our own: right after each read of the parties (fee rule included), the schedule is edited, before the statement runs.
    const { db, pool } = createDb(inject('databaseUrl'), 2);
    const query = pool.query.bind(pool);
    let edits = 0;
    pool.query = (async (...args: Parameters<typeof query>) => {
      const result = await query(...args);
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
      if (/LEFT JOIN fee_rules/.test(text) && !/INSERT INTO payouts/.test(text)) {
        edits++;
        await testDb().execute(sql`UPDATE fee_rules SET fixed = fixed + 1 WHERE business_id = ${biz.id} AND mode = 'test' AND applies_to = 'card_to_card'`);
      }
      return result;
    }) as typeof pool.query;
    try {
      const answer = await createPayout(db, {
        businessId: biz.id,
        mode: 'test',
        actor,
        input: { card_number: card.card_number, destination_card_number: to, amount: 500 },
      }).catch((e) => e);
      expect(answer).toBeInstanceOf(ServiceError);
      expect((answer as ServiceError).code).toBe('unavailable');
      expect((answer as ServiceError).status).toBe(503);
      expect(edits).toBe(3);
    } finally {
      await pool.end();
    }
    expect(await cardBalance(biz.test, card.card_number)).toBe(10_000);
    expect(await cardBalance(biz.test, to)).toBe(0);
    const payouts = await testDb().execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM payouts WHERE business_id = ${biz.id} AND payout_type = 'card_to_card'`,
    );
    expect(payouts.rows[0].n).toBe(0);
  });
});
