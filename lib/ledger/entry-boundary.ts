import { sql, type SQL } from 'drizzle-orm';

/** An hour: far longer than any transaction takes from its start (its entries' time) to writing them. */
export const STRAGGLER_MS = 3_600_000;

/**
 * The first ledger entry id stamped at or after `at`, of one account (on
 * (account_id, id)) or of the whole ledger (on the primary key), found by
 * halving: about 40 index probes at any size, never a walk over the entries
 * before it. Ids follow the order entries were written in; within one account
 * their times follow too, and across accounts up to how long a transaction
 * takes to commit, which callers cover with STRAGGLER_MS either side.
 */
export function entryBoundary(at: Date, accountId?: number | SQL): SQL {
  const stamp = at.toISOString();
  const of = accountId === undefined ? sql`` : sql`account_id = ${accountId} AND`;
  const all = accountId === undefined ? sql`` : sql`WHERE account_id = ${accountId}`;
  return sql`(WITH RECURSIVE s(lo, hi) AS (
      SELECT coalesce((SELECT min(id) FROM ledger_entries ${all}), 0)::bigint,
             coalesce((SELECT max(id) FROM ledger_entries ${all}), -1)::bigint + 1
      UNION ALL
      SELECT CASE WHEN p.earlier THEN p.id + 1 ELSE s.lo END, CASE WHEN p.earlier THEN s.hi ELSE (s.lo + s.hi) / 2 END
      FROM s CROSS JOIN LATERAL (
        SELECT coalesce(bool_or(x.id < s.hi AND x.created_at < ${stamp}::timestamptz), false) AS earlier, max(x.id) AS id
        FROM (SELECT id, created_at FROM ledger_entries WHERE ${of} id >= (s.lo + s.hi) / 2 ORDER BY id LIMIT 1) x
      ) p
      WHERE s.lo < s.hi
    ) SELECT lo FROM s WHERE lo >= hi)`;
}
