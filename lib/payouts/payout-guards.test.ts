import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fundCard, setFees } from '../../tests/api/payouts-fixtures';
import { createCard, createTestBusiness, testDb, type TestBusiness } from '../../tests/helpers';
import type { Actor } from '../actor';
import { createDb, type Db } from '../db/client';
import { ServiceError } from '../errors';
import { clearingAccountId } from '../ledger/accounts';
import { postTransaction } from '../ledger/post-transaction';
import { createPayout } from './create-payout';

/**
 * The payout statement's guards, by what they keep from being written. Each
 * case changes one thing after the payout read its parties and just before
 * its statement is sent (a hook on the pool), then runs the real writer
 * against PostgreSQL and compares what the business's ledger, payouts, events
 * and audit log hold with what they held at that moment. Each runs twice:
 * with parties read afresh, and with parties this process remembered from an
 * earlier payout (no read at all before the statement).
 */

let db: Db;
let pool: ReturnType<typeof createDb>['pool'];
/** Runs once, right before the next payout statement is sent. */
let beforeStatement: (() => Promise<void>) | undefined;
let statementsSent = 0;

beforeAll(() => {
  // Bank payouts of this file never settle by themselves: a settlement landing mid-case would be a write the case did not make.
  process.env.TEST_SETTLE_AFTER_MS = '0';
  ({ db, pool } = createDb(inject('databaseUrl'), 2));
  const query = pool.query.bind(pool);
  pool.query = (async (...args: Parameters<typeof query>) => {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
    if (text.includes('INSERT INTO payouts')) {
      statementsSent++;
      const hook = beforeStatement;
      beforeStatement = undefined;
      await hook?.();
    }
    return query(...args);
  }) as typeof pool.query;
});
afterAll(() => pool.end());

interface Written {
  payouts: { reference: string; service_fee: number; amount: number }[];
  payoutTransactions: number;
  payoutEvents: number;
  payoutAuditLines: number;
  balances: Record<string, number>;
}

/** What the business's books hold that a payout writes, and the balances of the cards (and merchant) involved. */
async function written(businessId: number, accounts: Record<string, string>): Promise<Written> {
  const count = async (q: ReturnType<typeof sql>) => (await testDb().execute<{ n: number }>(q)).rows[0].n;
  const payouts = await testDb().execute<{ reference: string; service_fee: number; amount: number }>(
    sql`SELECT reference, service_fee::int, amount::int FROM payouts WHERE business_id = ${businessId} ORDER BY id`,
  );
  const balances: Record<string, number> = {};
  for (const [name, account] of Object.entries(accounts)) {
    const r = await testDb().execute<{ balance: number }>(sql`SELECT balance FROM ledger_accounts WHERE name = ${account}`);
    balances[name] = Number(r.rows[0]?.balance ?? 0);
  }
  return {
    payouts: payouts.rows,
    payoutTransactions: await count(sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE business_id = ${businessId} AND kind LIKE 'payout%'`),
    payoutEvents: await count(sql`SELECT count(*)::int AS n FROM webhook_events WHERE business_id = ${businessId} AND type LIKE 'payout.%'`),
    payoutAuditLines: await count(sql`SELECT count(*)::int AS n FROM audit_log WHERE business_id = ${businessId} AND action LIKE 'payout.%'`),
    balances,
  };
}

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'paid',
    (err) => (err instanceof ServiceError ? err.code : `not a ServiceError: ${err}`),
  );

interface Scene {
  biz: TestBusiness;
  merchant: TestBusiness;
  source: string;
  destination: string;
  accounts: Record<string, string>;
  pay: (input: Record<string, unknown>, actor?: Actor) => Promise<unknown>;
}

/** A business with a funded card, an empty destination card and another business to pay, each payout by the writer on the hooked pool. */
async function scene(remembered: boolean, fees: Record<string, unknown>[] = []): Promise<Scene> {
  const [biz, merchant] = await Promise.all([createTestBusiness(), createTestBusiness()]);
  const source = (await createCard(biz.test)).card_number;
  const destination = (await createCard(biz.test)).card_number;
  await fundCard(biz, source, 100_000);
  if (fees.length > 0) await setFees(biz, 'test', fees);
  const accounts = {
    source: `card:${source}`,
    destination: `card:${destination}`,
    merchant: `business:${merchant.id}`,
  };
  const pay = (input: Record<string, unknown>, actor: Actor = { type: 'system', id: 'payout-guards-test' }) =>
    createPayout(db, { businessId: biz.id, mode: 'test', actor, input: { card_number: source, ...input } });
  if (remembered) {
    // One payout of each type leaves the cards and fee rules in this process's memory.
    await pay({ destination_card_number: destination, amount: 100 });
    await pay({ merchant_id: merchant.merchant_id, amount: 100 });
    await pay({ bank_slug: 'cbe', account_number: '1000123456123', account_name: 'A', amount: 100 });
  }
  return { biz, merchant, source, destination, accounts, pay };
}

/** Pays with `change` made between the read and the statement; answers the outcome, what was written before the statement, and after. */
async function payAfter(s: Scene, change: () => Promise<unknown>, input: Record<string, unknown>, actor?: Actor) {
  let before: Written | undefined;
  beforeStatement = async () => {
    await change();
    before = await written(s.biz.id, s.accounts);
  };
  const sent = statementsSent;
  const answer = await outcome(s.pay(input, actor));
  beforeStatement = undefined;
  expect(before, 'the payout sent no statement').toBeDefined();
  return { answer, before: before!, after: await written(s.biz.id, s.accounts), statements: statementsSent - sent };
}

function expectNothingWritten(run: Awaited<ReturnType<typeof payAfter>>, code: string) {
  expect(run.answer).toBe(code);
  // No ledger transaction, payout, event or audit line, and every balance as it was when the statement was sent.
  expect(run.after).toEqual(run.before);
}

const C2C = (s: Scene) => ({ destination_card_number: s.destination, amount: 1_000 });
const B2B = (s: Scene) => ({ merchant_id: s.merchant.merchant_id, amount: 1_000 });
const BANK = (_: Scene) => ({ bank_slug: 'cbe', account_number: '1000123456123', account_name: 'Abebe Kebede', amount: 1_000 });

const apiKeyActor = async (businessId: number): Promise<Actor> => {
  const key = await testDb().execute<{ id: number }>(sql`SELECT id FROM api_keys WHERE business_id = ${businessId} AND mode = 'test' ORDER BY id LIMIT 1`);
  return { type: 'api_key', id: String(key.rows[0].id) };
};
const setKey = (businessId: number, change: ReturnType<typeof sql>) =>
  testDb().execute(sql`UPDATE api_keys SET ${change} WHERE business_id = ${businessId} AND mode = 'test'`);

describe.each([
  ['parties read afresh', false],
  ['parties remembered', true],
])('the payout statement, with %s', (_, remembered) => {
  it.each([
    ['revoked', sql`active = false, revoked_at = now()`],
    ['switched off', sql`active = false`],
    ['no longer set up for gift cards', sql`gift_cards_enabled = false`],
  ])('writes nothing for an API key %s after the payout began', async (_, change) => {
    for (const destination of [C2C, B2B, BANK]) {
      const s = await scene(remembered);
      const actor = await apiKeyActor(s.biz.id);
      expectNothingWritten(await payAfter(s, () => setKey(s.biz.id, change), destination(s), actor), 'forbidden');
      // The same key once usable again moves the money: the refusal was the key's.
      await setKey(s.biz.id, sql`active = true, gift_cards_enabled = true, revoked_at = NULL`);
      expect(await outcome(s.pay(destination(s), actor))).toBe('paid');
    }
  });

  it("writes nothing for another business's API key", async () => {
    const s = await scene(remembered);
    const run = await payAfter(s, async () => {}, C2C(s), await apiKeyActor(s.merchant.id));
    expectNothingWritten(run, 'forbidden');
  });

  it('writes nothing from a source card disabled since, whatever the destination', async () => {
    for (const destination of [C2C, B2B, BANK]) {
      const s = await scene(remembered);
      const run = await payAfter(s, () => s.biz.test.patch(`/api/v1/card/${s.source}`, { status: 'disable' }), destination(s));
      expectNothingWritten(run, 'card_disabled');
    }
  });

  it('writes nothing from a source card cancelled since', async () => {
    const s = await scene(remembered);
    const run = await payAfter(s, () => s.biz.test.delete(`/api/v1/card/${s.source}`), C2C(s));
    expectNothingWritten(run, 'card_not_found');
    expect(run.after.balances.source).toBe(0);
  });

  it('writes nothing to a destination card disabled since', async () => {
    const s = await scene(remembered);
    const run = await payAfter(s, () => s.biz.test.patch(`/api/v1/card/${s.destination}`, { status: 'disable' }), C2C(s));
    expectNothingWritten(run, 'destination_card_disabled');
  });

  it('writes nothing to a destination card cancelled since', async () => {
    const s = await scene(remembered);
    const run = await payAfter(s, () => s.biz.test.delete(`/api/v1/card/${s.destination}`), C2C(s));
    expectNothingWritten(run, 'destination_card_not_found');
  });

  it('writes nothing past what the source holds when it was spent meanwhile', async () => {
    const s = await scene(remembered);
    const drain = async () => {
      const card = await testDb().execute<{ account_id: number; balance: number }>(
        sql`SELECT c.account_id, a.balance FROM cards c JOIN ledger_accounts a ON a.id = c.account_id WHERE c.card_number = ${s.source}`,
      );
      const { account_id, balance } = card.rows[0];
      const deposits = await clearingAccountId(testDb(), 'deposits', 'test', 'ETB');
      await postTransaction(testDb(), {
        mode: 'test',
        kind: 'test_spend',
        businessId: s.biz.id,
        actor: { type: 'system', id: 'payout-guards-test' },
        postings: [
          { accountId: Number(account_id), amount: -(Number(balance) - 500) },
          { accountId: deposits, amount: Number(balance) - 500 },
        ],
      });
    };
    const run = await payAfter(s, drain, C2C(s));
    expectNothingWritten(run, 'insufficient_balance');
    expect(run.after.balances.source).toBe(500);
  });

  it('writes the payout once, with the new fee, when the fee rule changed since', async () => {
    const s = await scene(remembered, [{ applies_to: 'card_to_card', fixed: 10 }]);
    const run = await payAfter(s, () => setFees(s.biz, 'test', [{ applies_to: 'card_to_card', fixed: 25 }]), C2C(s));
    expect(run.answer).toBe('paid');
    // The first statement refused the old fee and wrote nothing; the second, after a fresh read, wrote the payout.
    expect(run.statements).toBe(2);
    const made = run.after.payouts.slice(run.before.payouts.length);
    expect(made).toEqual([expect.objectContaining({ amount: 1_000, service_fee: 25 })]);
    expect(run.after.payoutTransactions).toBe(run.before.payoutTransactions + 1);
    expect(run.after.payoutEvents).toBe(run.before.payoutEvents + 1);
    expect(run.after.payoutAuditLines).toBe(run.before.payoutAuditLines + 1);
    expect(run.after.balances.source).toBe(run.before.balances.source - 1_025);
    expect(run.after.balances.destination).toBe(run.before.balances.destination + 1_000);
    const fee = await testDb().execute<{ amount: number }>(sql`
      SELECT e.amount FROM payouts p JOIN ledger_entries e ON e.transaction_id = p.transaction_id
      JOIN ledger_accounts a ON a.id = e.account_id WHERE p.reference = ${made[0].reference} AND a.kind = 'fee_revenue'`);
    expect(fee.rows.map((r) => Number(r.amount))).toEqual([25]);
  });
});
