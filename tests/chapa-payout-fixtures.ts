import { expect } from 'vitest';
import type { LiveStack } from './chapa-harness';
import { apiClient, randomPhone, type ApiClient } from './helpers';

export interface LiveCard {
  live: ApiClient;
  key: string;
  businessId: number;
  cardNumber: string;
}

export async function liveCard(s: LiveStack, amount = 500_000): Promise<LiveCard> {
  const biz = await s.createBusiness('Chapa payouts');
  const live = apiClient(biz.keys.live, s.baseUrl);
  const card = await live.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Live', last_name: 'Holder' });
  expect(card.status, JSON.stringify(card.body)).toBe(201);
  const cardNumber = card.body.data.card_number as string;
  await s.fund(biz.id, 'ETB', amount);
  const t = await live.post('/api/v1/transfers', { amount, bank_slug: 'link', account_number: cardNumber, account_name: 'Float' });
  expect(t.status, JSON.stringify(t.body)).toBe(200);
  await expect.poll(() => balanceOf(live, cardNumber), { timeout: 15_000 }).toBe(amount);
  return { live, key: biz.keys.live, businessId: biz.id, cardNumber };
}

export async function balanceOf(live: ApiClient, cardNumber: string): Promise<number> {
  const res = await live.get(`/api/v1/card/${cardNumber}`);
  return res.body.data.available_amount;
}

export const payoutStatus = async (live: ApiClient, reference: string) =>
  (await live.get(`/api/v1/card/payout/${reference}/status`)).body.data?.status as string | undefined;

/** The fake's transfers, and every POST /transfers that reached its handler per reference (5xx, 429 and timeout switches answer before it). */
export async function fakeTransfers(s: LiveStack): Promise<{ transfers: Record<string, any>; requests: Record<string, number>; approvals: any[] }> {
  const res = await fetch(`${s.fake.url}/__fake/transfers`);
  return res.json();
}

export const transferSwitches = (s: LiveStack, body: Record<string, unknown>) => s.fake.control('/__fake/transfers/switches', body);

export async function payout(c: LiveCard, amount: number, bankSlug: string, accountNumber: string) {
  return c.live.post('/api/v1/card/payouts', {
    card_number: c.cardNumber,
    amount,
    bank_slug: bankSlug,
    account_number: accountNumber,
    account_name: 'Abebe Kebede',
  });
}
