import { describe, expect, inject, it } from 'vitest';
import { loadPaymentDetail, loadPayoutDetail } from '../lib/dashboard/history-details';
import { createTestBusiness, testDb } from './helpers';
import { businessWithCard } from './api/payouts-fixtures';

process.env.DATABASE_URL = inject('databaseUrl');

describe('the payment and payout pages’ loads', () => {
  it('a payout is found only by its own business in its own mode, with its trail and who started it', async () => {
    const { biz, card } = await businessWithCard(20_000);
    const res = await biz.test.post('/api/v1/card/payouts', {
      card_number: card.card_number,
      amount: 1_000,
      bank_slug: 'cbe',
      account_number: '1000123451234',
      account_name: 'Abebe Kebede',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const reference = res.body.data.provider_reference as string;

    const own = await loadPayoutDetail(testDb(), { businessId: biz.id, mode: 'test', reference });
    expect(own?.payout).toMatchObject({ reference, amount: 1_000, sourceCardNumber: card.card_number, payoutType: 'bank', bankSlug: 'cbe' });
    expect(own?.trail.map((e) => e.amount).reduce((a, b) => a + b, 0)).toBe(0);
    expect(own?.trail.length).toBeGreaterThan(0);
    expect(own?.startedBy).toMatchObject({ kind: 'api_key' });
    expect(own?.merchantName).toBeNull();
    expect(own?.provider).toBeNull();

    const other = await createTestBusiness();
    expect(await loadPayoutDetail(testDb(), { businessId: other.id, mode: 'test', reference })).toBeUndefined();
    expect(await loadPayoutDetail(testDb(), { businessId: biz.id, mode: 'live', reference })).toBeUndefined();
    expect(await loadPayoutDetail(testDb(), { businessId: biz.id, mode: 'test', reference: ' ' })).toBeUndefined();
  });

  it('a payment is found only by its own business in its own mode; nothing has moved while it is pending', async () => {
    const { biz, card } = await businessWithCard(0);
    const res = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 2_550, card_number: card.card_number });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const reference = res.body.data.link_reference as string;

    const own = await loadPaymentDetail(testDb(), { businessId: biz.id, mode: 'test', reference });
    expect(own?.payment).toMatchObject({ linkReference: reference, amount: 2_550, status: 'pending', cardNumber: card.card_number });
    expect(own?.trail).toEqual([]);

    const other = await createTestBusiness();
    expect(await loadPaymentDetail(testDb(), { businessId: other.id, mode: 'test', reference })).toBeUndefined();
    expect(await loadPaymentDetail(testDb(), { businessId: biz.id, mode: 'live', reference })).toBeUndefined();
  });
});
