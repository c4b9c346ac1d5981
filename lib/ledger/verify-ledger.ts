import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

export interface LedgerReport {
  ok: boolean;
  transactions: number;
  accounts: number;
  problems: string[];
}

/** Every transaction balances per currency; every stored balance equals the sum of its entries. */
export async function verifyLedger(db: DbOrTx): Promise<LedgerReport> {
  const problems: string[] = [];
  const unbalanced = await db.execute<{ transaction_id: number; currency: string; total: number }>(sql`
    SELECT transaction_id, currency, sum(amount)::bigint AS total FROM ledger_entries
    GROUP BY transaction_id, currency HAVING sum(amount) <> 0 LIMIT 20`);
  for (const r of unbalanced.rows) problems.push(`transaction ${r.transaction_id} is off by ${r.total} ${r.currency}`);

  const mismatched = await db.execute<{ id: number; balance: number; total: number }>(sql`
    SELECT a.id, a.balance, coalesce(e.total, 0)::bigint AS total
    FROM ledger_accounts a
    LEFT JOIN (SELECT account_id, sum(amount) AS total FROM ledger_entries GROUP BY account_id) e ON e.account_id = a.id
    WHERE a.balance <> coalesce(e.total, 0) LIMIT 20`);
  for (const r of mismatched.rows) problems.push(`account ${r.id} holds ${r.balance} but its entries sum to ${r.total}`);

  const negative = await db.execute<{ id: number; balance: number }>(sql`
    SELECT id, balance FROM ledger_accounts WHERE NOT allow_negative AND balance < 0 LIMIT 20`);
  for (const r of negative.rows) problems.push(`account ${r.id} is below zero: ${r.balance}`);

  const mixed = await db.execute<{ id: number }>(sql`
    SELECT e.id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
    WHERE e.currency <> a.currency LIMIT 20`);
  for (const r of mixed.rows) problems.push(`entry ${r.id} is in another currency than its account`);

  const counts = await db.execute<{ transactions: number; accounts: number }>(sql`
    SELECT (SELECT count(*) FROM ledger_transactions)::bigint AS transactions, (SELECT count(*) FROM ledger_accounts)::bigint AS accounts`);
  const { transactions, accounts } = counts.rows[0];
  return { ok: problems.length === 0, transactions: Number(transactions), accounts: Number(accounts), problems };
}
