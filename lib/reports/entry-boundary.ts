import { sql, type SQL } from 'drizzle-orm';

/** The account's first entry id at or after `at`, found by halving on (account_id, id): the scan never walks the entries before it. */
export function entryBoundary(accountId: number | SQL, at: Date): SQL {
  // Within one account, ids follow the order the entries were written in, and their times with them, so
  // the first entry stamped at or after `at` is found in about 40 index probes at any size. The range's
  // edge is where the stamps cross the instant; the balance chain is exact on either side of it.
  const stamp = at.toISOString();
  return sql`(WITH RECURSIVE s(lo, hi) AS (
      SELECT coalesce((SELECT min(id) FROM ledger_entries WHERE account_id = ${accountId}), 0)::bigint,
             coalesce((SELECT max(id) FROM ledger_entries WHERE account_id = ${accountId}), -1)::bigint + 1
      UNION ALL
      SELECT CASE WHEN p.earlier THEN p.id + 1 ELSE s.lo END, CASE WHEN p.earlier THEN s.hi ELSE (s.lo + s.hi) / 2 END
      FROM s CROSS JOIN LATERAL (
        SELECT coalesce(bool_or(x.id < s.hi AND x.created_at < ${stamp}::timestamptz), false) AS earlier, max(x.id) AS id
        FROM (SELECT id, created_at FROM ledger_entries WHERE account_id = ${accountId} AND id >= (s.lo + s.hi) / 2 ORDER BY id LIMIT 1) x
      ) p
      WHERE s.lo < s.hi
    ) SELECT lo FROM s WHERE lo >= hi)`;
}
