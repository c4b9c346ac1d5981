import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { adminClient, createCard, createTestBusiness, testDb, type ApiClient, type TestBusiness } from '../helpers';

/** Credits a business account through the back office. */
export async function fundBusiness(biz: TestBusiness, mode: 'test' | 'live', currency: string, amount: number) {
  const res = await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode, currency, amount });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export async function setFees(biz: TestBusiness, mode: 'test' | 'live', rules: Record<string, unknown>[]) {
  const res = await adminClient().put(`/api/admin/businesses/${biz.id}/fees`, { mode, rules });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Funds a test-mode card the way a business would: business account, transfer, provider settles it. */
export async function fundCard(biz: TestBusiness, cardNumber: string, amount: number, currency = 'ETB') {
  await fundBusiness(biz, 'test', currency, amount);
  const t = await biz.test.post('/api/v1/transfers', { amount, bank_slug: 'link', account_number: cardNumber, account_name: 'Top-up' });
  expect(t.status, JSON.stringify(t.body)).toBe(200);
  const s = await biz.test.post(`/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, { status: 'success' });
  expect(s.body.data.status).toBe('success');
}

/** A business with a funded test card. */
export async function businessWithCard(amount = 100_000, currency = 'ETB') {
  const biz = await createTestBusiness();
  const card = await createCard(biz.test, currency);
  if (amount > 0) await fundCard(biz, card.card_number, amount, currency);
  return { biz, card };
}

export async function cardBalance(client: ApiClient, cardNumber: string): Promise<number> {
  const res = await client.get(`/api/v1/card/${cardNumber}`);
  expect(res.status).toBe(200);
  return res.body.data.available_amount;
}

/** The balance of a shared account, summed over its shards (fee revenue is split over several). */
export async function ledgerBalance(name: string, mode: string, currency: string): Promise<number> {
  const r = await testDb().execute<{ balance: number }>(
    sql`SELECT coalesce(sum(balance), 0)::bigint AS balance FROM ledger_accounts
        WHERE (name = ${name} OR name LIKE ${`${name}#%`}) AND mode = ${mode} AND currency = ${currency}`,
  );
  return Number(r.rows[0]?.balance ?? 0);
}

export async function eventsFor(reference: string) {
  const r = await testDb().execute<{ type: string; body: string; business_id: number; mode: string }>(
    sql`SELECT type, body, business_id, mode FROM webhook_events WHERE subject_reference = ${reference} ORDER BY id`,
  );
  return r.rows;
}
