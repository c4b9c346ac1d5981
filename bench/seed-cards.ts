import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../lib/db/client';
import { createCard } from '../lib/cards/create-card';
import { newCardNumber } from '../lib/ids';
import { clearingAccountId } from '../lib/ledger/accounts';
import { postTransaction } from '../lib/ledger/post-transaction';

/**
 * Test-mode ETB cards for a business, as the schema holds them (holder and its name, ledger
 * account, card, list total), inserted 5,000 per statement: card creation
 * through the API would take minutes at 100,000. Newest first by created_at.
 */
export async function seedCards(db: Db, businessId: number, count: number): Promise<string[]> {
  const numbers: string[] = [];
  for (let done = 0; done < count; done += 5_000) {
    const n = Math.min(5_000, count - done);
    const tag = randomUUID();
    const batch = Array.from({ length: n }, () => newCardNumber());
    const phones = batch.map((_, i) => `+2519${String(businessId % 10)}${String(done + i).padStart(7, '0')}`);
    await db.execute(sql`
      WITH input AS (
        SELECT * FROM unnest(${`{${batch.join(',')}}`}::text[], ${`{${phones.join(',')}}`}::text[]) WITH ORDINALITY AS t(card_number, phone, ord)
      ), cu AS (
        INSERT INTO customers (mode, phone_number, national_number)
        SELECT 'test', phone || '-' || ${tag}, substr(phone, 5) FROM input ORDER BY ord
        RETURNING id, phone_number
      ), named AS (
        INSERT INTO customer_names (business_id, customer_id, first_name, last_name)
        SELECT ${businessId}, id, 'Bench', 'Holder' FROM cu
      ), acc AS (
        INSERT INTO ledger_accounts (kind, name, business_id, mode, currency)
        SELECT 'card', 'card:' || card_number, ${businessId}, 'test', 'ETB' FROM input ORDER BY ord
        RETURNING id, name
      )
      INSERT INTO cards (ref_id, business_id, mode, customer_id, card_number, currency, account_id, created_at, updated_at)
      SELECT gen_random_uuid()::text, ${businessId}, 'test', cu.id, i.card_number, 'ETB', acc.id,
             now() - ((${done} + i.ord) || ' seconds')::interval, now()
      FROM input i
      JOIN acc ON acc.name = 'card:' || i.card_number
      JOIN cu ON cu.phone_number = i.phone || '-' || ${tag}`);
    numbers.push(...batch);
  }
  await db.execute(sql`INSERT INTO list_counters (business_id, mode, kind, shard, count) VALUES (${businessId}, 'test', 'cards', 0, ${count})
    ON CONFLICT (business_id, mode, kind, shard) DO UPDATE SET count = list_counters.count + ${count}`);
  return numbers;
}

/**
 * A test-mode ETB card made as the API makes one (createCard), holding `amount` minor units from the deposits
 * clearing account: for benchmarks whose requests spend from a few hundred cards.
 */
export async function fundedCard(db: Db, businessId: number, amount: number): Promise<string> {
  const actor = { type: 'system', id: 'bench' } as const;
  const card = await createCard(db, {
    businessId,
    mode: 'test',
    actor,
    input: { phone_number: `+2519${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}`, currency: 'ETB', first_name: 'Bench' },
  });
  const deposits = await clearingAccountId(db, 'deposits', 'test', 'ETB');
  const { rows } = await db.execute<{ account_id: number }>(sql`SELECT account_id FROM cards WHERE card_number = ${card.card_number}`);
  await db.transaction((tx) =>
    postTransaction(tx, {
      mode: 'test',
      kind: 'test_funding',
      businessId,
      actor,
      postings: [
        { accountId: deposits, amount: -amount },
        { accountId: Number(rows[0].account_id), amount },
      ],
    }),
  );
  return card.card_number;
}
