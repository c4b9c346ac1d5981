import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDb } from '../../tests/helpers';
import { ServiceError } from '../errors';
import { createCardAccount, clearingAccountId } from './accounts';
import { postTransaction } from './post-transaction';
import { verifyLedger } from './verify-ledger';
import { newCardNumber } from '../ids';

const actor = { type: 'system' as const, id: 'ledger-test' };

async function twoAccounts(start = 0) {
  const db = testDb();
  const a = await createCardAccount(db, { businessId: null as unknown as number, mode: 'test', currency: 'ETB', cardNumber: newCardNumber() });
  const b = await createCardAccount(db, { businessId: null as unknown as number, mode: 'test', currency: 'ETB', cardNumber: newCardNumber() });
  if (start) {
    const src = await clearingAccountId(db, 'deposits', 'test', 'ETB');
    await db.transaction((tx) =>
      postTransaction(tx, {
        mode: 'test',
        kind: 't',
        businessId: null,
        actor,
        postings: [
          { accountId: src, amount: -start },
          { accountId: a, amount: start },
        ],
      }),
    );
  }
  return { a, b };
}

const balanceOf = async (id: number) =>
  Number((await testDb().execute<{ balance: number }>(sql`SELECT balance FROM ledger_accounts WHERE id = ${id}`)).rows[0].balance);

describe('postTransaction', () => {
  it('moves money and records entries with the balance after each', async () => {
    const { a, b } = await twoAccounts(1000);
    const posted = await testDb().transaction((tx) =>
      postTransaction(tx, {
        mode: 'test',
        kind: 't',
        businessId: null,
        actor,
        postings: [
          { accountId: a, amount: -300 },
          { accountId: b, amount: 300 },
        ],
      }),
    );
    expect(await balanceOf(a)).toBe(700);
    expect(await balanceOf(b)).toBe(300);
    const entries = await testDb().execute<{ account_id: number; amount: number; balance_after: number }>(
      sql`SELECT account_id, amount, balance_after FROM ledger_entries WHERE transaction_id = ${posted.transactionId} ORDER BY account_id`,
    );
    expect(entries.rows.map((r) => [Number(r.account_id), Number(r.amount), Number(r.balance_after)])).toEqual([
      [a, -300, 700],
      [b, 300, 300],
    ]);
  });

  it('refuses an overdraft and writes nothing', async () => {
    const { a, b } = await twoAccounts(100);
    const before = await testDb().execute(sql`SELECT count(*)::int AS n FROM ledger_entries WHERE account_id IN (${a}, ${b})`);
    await expect(
      testDb().transaction((tx) =>
        postTransaction(tx, {
          mode: 'test',
          kind: 't',
          businessId: null,
          actor,
          postings: [
            { accountId: a, amount: -101 },
            { accountId: b, amount: 101 },
          ],
        }),
      ),
    ).rejects.toBeInstanceOf(ServiceError);
    const after = await testDb().execute(sql`SELECT count(*)::int AS n FROM ledger_entries WHERE account_id IN (${a}, ${b})`);
    expect(after.rows[0]).toEqual(before.rows[0]);
    expect(await balanceOf(a)).toBe(100);
  });

  it('refuses postings that do not sum to zero, or a float', async () => {
    const { a, b } = await twoAccounts(1000);
    await expect(
      testDb().transaction((tx) =>
        postTransaction(tx, {
          mode: 'test',
          kind: 't',
          businessId: null,
          actor,
          postings: [
            { accountId: a, amount: -300 },
            { accountId: b, amount: 299 },
          ],
        }),
      ),
    ).rejects.toThrow(/does not balance/);
    await expect(
      testDb().transaction((tx) =>
        postTransaction(tx, {
          mode: 'test',
          kind: 't',
          businessId: null,
          actor,
          postings: [
            { accountId: a, amount: -1.5 },
            { accountId: b, amount: 1.5 },
          ],
        }),
      ),
    ).rejects.toThrow(/not an integer/);
    expect(await balanceOf(a)).toBe(1000);
  });

  it('refuses to mix currencies in one transaction', async () => {
    const db = testDb();
    const { a } = await twoAccounts(1000);
    const usd = await createCardAccount(db, { businessId: null as unknown as number, mode: 'test', currency: 'USD', cardNumber: newCardNumber() });
    await expect(
      db.transaction((tx) =>
        postTransaction(tx, {
          mode: 'test',
          kind: 't',
          businessId: null,
          actor,
          postings: [
            { accountId: a, amount: -100 },
            { accountId: usd, amount: 100 },
          ],
        }),
      ),
    ).rejects.toThrow(/does not balance/);
  });

  it('survives opposite transfers between the same accounts in parallel without deadlock or loss', async () => {
    const { a, b } = await twoAccounts(10_000);
    const db = testDb();
    const src = await clearingAccountId(db, 'deposits', 'test', 'ETB');
    await db.transaction((tx) =>
      postTransaction(tx, {
        mode: 'test',
        kind: 't',
        businessId: null,
        actor,
        postings: [
          { accountId: src, amount: -10_000 },
          { accountId: b, amount: 10_000 },
        ],
      }),
    );
    const moves = Array.from({ length: 60 }, (_, i) =>
      db.transaction((tx) =>
        postTransaction(tx, {
          mode: 'test',
          kind: 't',
          businessId: null,
          actor,
          postings:
            i % 2
              ? [
                  { accountId: a, amount: -100 },
                  { accountId: b, amount: 100 },
                ]
              : [
                  { accountId: b, amount: -100 },
                  { accountId: a, amount: 100 },
                ],
        }),
      ),
    );
    await Promise.all(moves);
    expect((await balanceOf(a)) + (await balanceOf(b))).toBe(20_000);
    expect(await balanceOf(a)).toBe(10_000);
  });
});

describe('verifyLedger', () => {
  it('is clean over everything the tests wrote', async () => {
    const report = await verifyLedger(testDb());
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('finds an entry that breaks a balance, and a stored balance that lies', async () => {
    const { a } = await twoAccounts(500);
    // Tamper inside a transaction that is rolled back, so the shared database stays clean.
    let report: Awaited<ReturnType<typeof verifyLedger>> | undefined;
    await testDb()
      .transaction(async (tx) => {
        await tx.execute(sql`UPDATE ledger_accounts SET balance = balance + 1 WHERE id = ${a}`);
        await tx.execute(sql`INSERT INTO ledger_entries (transaction_id, account_id, currency, amount, balance_after)
                             SELECT transaction_id, account_id, currency, 7, 0 FROM ledger_entries WHERE account_id = ${a} LIMIT 1`);
        report = await verifyLedger(tx);
        tx.rollback();
      })
      .catch(() => {});
    expect(report!.ok).toBe(false);
    expect(report!.problems.some((p) => p.includes('is off by 7'))).toBe(true);
    expect(report!.problems.some((p) => p.startsWith(`account ${a} holds`))).toBe(true);
    expect((await verifyLedger(testDb())).ok).toBe(true);
  });
});
