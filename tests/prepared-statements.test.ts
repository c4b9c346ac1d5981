import { sql } from 'drizzle-orm';
import { escapeLiteral } from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../lib/db/client';
import { compile, runCompiled } from '../lib/db/prepared';
import { postingCtes, postingValues, postingVerdict } from '../lib/ledger/post-transaction';

// One connection, so every call below runs on the session whose plan cache is inspected.
const { db, pool } = createDb(inject('databaseUrl'), 1);
afterAll(() => pool.end());

describe('compiled statements', () => {
  it('number each placeholder once, keep constants, and answer each call with its own values', async () => {
    const statement = compile(sql`SELECT ${sql.placeholder('a')}::int + ${sql.placeholder('b')}::int AS sum,
      ${sql.placeholder('a')}::int * 2 AS twice, ${'fixed'}::text AS label`);
    expect(statement.text).toContain('$1::int + $2::int');
    expect(statement.text).toContain('$1::int * 2');
    expect(statement.slots).toEqual([{ placeholder: 'a' }, { placeholder: 'b' }, { value: 'fixed' }]);
    const run = async (a: number, b: number) => (await runCompiled<{ sum: number; twice: number; label: string }>(db, statement, { a, b })).rows[0];
    expect(await run(2, 3)).toEqual({ sum: 5, twice: 4, label: 'fixed' });
    expect(await run(10, -4)).toEqual({ sum: 6, twice: 20, label: 'fixed' });
    await expect(runCompiled(db, statement, { a: 1 })).rejects.toThrow('no value for placeholder b');
  });

  // PostgreSQL plans a prepared statement afresh on every call when its generic plan looks dearer than a
  // custom one. It guesses ten elements for an array placeholder, which on a database of real size tipped
  // the payout statement there and halved its throughput; its accounts are three numbered slots instead.
  it('give the planner the number of accounts a payout statement locks', async () => {
    const posting = {
      mode: 'test' as const,
      kind: 'plan_test',
      businessId: null,
      actor: { type: 'system' as const, id: 'plan-test' },
      postings: [
        { accountId: 1, amount: -100 },
        { accountId: 2, amount: 100 },
      ],
    };
    const lockedRows = async (slots?: number) => {
      const statement = compile(sql`WITH ${postingCtes(sql`true`, slots)} SELECT ${postingVerdict} FROM verdict v`);
      const values = postingValues(posting, slots);
      const args = statement.slots.map((slot, _i) => ('value' in slot ? slot.value : values[slot.placeholder as keyof typeof values]));
      const name = `plan_test_${slots ?? 'array'}`;
      await pool.query(`PREPARE ${name} AS ${statement.text}`);
      await pool.query('SET plan_cache_mode = force_generic_plan');
      try {
        const literal = (v: unknown) => (v === null ? 'NULL' : escapeLiteral(Array.isArray(v) ? `{${v.join(',')}}` : String(v)));
        const explained = await pool.query(`EXPLAIN (FORMAT JSON) EXECUTE ${name}(${args.map(literal).join(', ')})`);
        const found = JSON.stringify(explained.rows[0]['QUERY PLAN']).match(/"Node Type":"LockRows"[^}]*?"Plan Rows":(\d+)/);
        return Number(found?.[1]);
      } finally {
        await pool.query(`RESET plan_cache_mode; DEALLOCATE ${name}`);
      }
    };
    expect(await lockedRows(3)).toBeLessThanOrEqual(3);
    expect(await lockedRows()).toBe(10);
  });
});
