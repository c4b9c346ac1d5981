import { sql } from 'drizzle-orm';
import { clearingAccountId } from '../lib/ledger/accounts';
import { postTransaction } from '../lib/ledger/post-transaction';
import type { Currency, Mode } from '../lib/validation';
import { testDb } from './helpers';

/** Puts money on a card straight through the ledger, as a deposit from outside (tests only). */
export async function fundCard(cardNumber: string, amount: number): Promise<void> {
  const db = testDb();
  const found = await db.execute<{ account_id: number; mode: Mode; currency: Currency; business_id: number }>(
    sql`SELECT account_id, mode, currency, business_id FROM cards WHERE card_number = ${cardNumber}`,
  );
  const card = found.rows[0];
  const deposits = await clearingAccountId(db, 'deposits', card.mode, card.currency);
  await db.transaction((tx) =>
    postTransaction(tx, {
      mode: card.mode,
      kind: 'test_funding',
      businessId: card.business_id,
      actor: { type: 'system', id: 'tests' },
      postings: [
        { accountId: deposits, amount: -amount },
        { accountId: Number(card.account_id), amount },
      ],
    }),
  );
}

export async function businessBalance(businessId: number, mode: Mode, currency: Currency): Promise<number> {
  const res = await testDb().execute<{ balance: number }>(
    sql`SELECT balance FROM ledger_accounts WHERE kind = 'business' AND business_id = ${businessId} AND mode = ${mode} AND currency = ${currency}`,
  );
  return Number(res.rows[0]?.balance ?? 0);
}
