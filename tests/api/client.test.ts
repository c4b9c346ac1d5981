import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createGiftCardClient, type GiftCardClient } from '../../lib/client/create-gift-card-client';
import type { ApiResponse } from '../../lib/client/types';
import { adminClient, createTestBusiness, randomPhone, type TestBusiness } from '../helpers';

/** Narrows to the success branch, failing the test with the whole answer otherwise. */
function ok<T>(res: ApiResponse<T>, httpStatus = 200): T {
  expect(res.status, JSON.stringify(res)).toBe('success');
  expect(res.httpStatus).toBe(httpStatus);
  if (res.status !== 'success') throw new Error('unreachable');
  return res.data;
}

let biz: TestBusiness;
let other: TestBusiness;
let client: GiftCardClient;

beforeAll(async () => {
  biz = await createTestBusiness('Typed client Co');
  other = await createTestBusiness('Typed client merchant');
  const funded = await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 1_000_000 });
  expect(funded.status).toBe(200);
  client = createGiftCardClient({ baseUrl: `${inject('baseUrl')}/api/v1/`, apiKey: biz.keys.test });
});

describe('the typed client, through a whole flow', () => {
  it('cards, a top-up, a payment, payouts of each type, events', async () => {
    const phone = randomPhone();
    const card = ok(await client.createCard({ phone_number: phone, currency: 'ETB', first_name: 'Typed', last_name: 'Client' }), 201);
    expect(card).toMatchObject({ name: 'Typed Client', currency: 'ETB', status: 1, available_amount: 0 });
    const receiver = ok(await client.createCard({ phone_number: randomPhone(), currency: 'ETB', first_name: 'Receiver' }), 201);

    const listed = ok(await client.listCards({ phone_number: phone.slice(4), limit: 5 }));
    expect(listed.items.map((c) => c.card_number)).toEqual([card.card_number]);
    expect(ok(await client.getCard(card.card_number)).ref_id).toBe(card.ref_id);

    const transfer = ok(await client.createTransfer({ amount: 200_000, bank_slug: 'link', account_number: card.card_number, account_name: 'Float' }));
    expect(transfer.status).toBe('PENDING');
    expect(ok(await client.settlePayout(transfer.provider_reference, 'success')).status).toBe('success');
    expect(ok(await client.getPayoutStatus(transfer.provider_reference)).completed_at).not.toBeNull();
    expect(ok(await client.getCard(card.card_number)).available_amount).toBe(200_000);

    const payment = ok(await client.createPayment({ type: 'hosted', amount: 10_000, card_number: card.card_number }), 201);
    expect(payment.checkout_url).toContain(`/checkout/${payment.link_reference}`);
    expect(ok(await client.completePayment(payment.link_reference, 'success')).status).toBe('success');
    expect(ok(await client.getPaymentStatus(payment.link_reference)).status).toBe('success');
    expect(ok(await client.listPayments()).items[0].link_reference).toBe(payment.link_reference);

    const c2c = ok(await client.createPayout({ card_number: card.card_number, destination_card_number: receiver.card_number, amount: 5_000 }));
    expect('initiator_reference' in c2c && c2c.charge_payer).toBe('sender');
    const b2b = ok(await client.createPayout({ card_number: card.card_number, merchant_id: other.merchant_id, amount: 5_000 }));
    expect('status' in b2b && b2b.status).toBe('SUCCESS');
    const banks = ok(await client.listBanks());
    const bank = banks.find((b) => b.type === 'bank' && b.currencies.includes('ETB'))!;
    const toBank = ok(
      await client.createPayout({
        card_number: card.card_number,
        amount: 5_000,
        bank_slug: bank.slug,
        account_number: '1000123456789',
        account_name: 'Typed Client',
      }),
    );
    expect('provider_reference' in toBank && toBank.status).toBe('PENDING');
    // Three card payouts; the top-up that funded the card is not one.
    expect(ok(await client.listPayouts({ limit: 10 })).total).toBe(3);
    expect(ok(await client.getCard(card.card_number)).available_amount).toBe(200_000 + 10_000 - 15_000);

    const events = ok(await client.listEvents({ type: 'payout.success' }));
    expect(events.items).toHaveLength(3);
    expect(ok(await client.listEvents({ undelivered: true })).total).toBeGreaterThanOrEqual(4);

    expect(ok(await client.setCardStatus(receiver.card_number, 'disable')).status).toBe(3);
    expect(ok(await client.setCardStatus(receiver.card_number, 'enable')).status).toBe(1);
    expect(ok(await client.cancelCard(receiver.card_number))).toBeNull();
  });

  it('returns API errors as values, with the title, the detail and the request id', async () => {
    const missing = await client.getCard('0000000000000000');
    expect(missing).toMatchObject({ status: 'error', httpStatus: 404, message: 'Gift card not found' });
    expect(missing.requestId).toMatch(/^req_/);
    const invalid = await client.createCard({ phone_number: randomPhone(), currency: 'EUR' as 'ETB' });
    expect(invalid.status === 'error' && invalid.error).toEqual({ currency: expect.any(String) });
    const unauthorized = await createGiftCardClient({ baseUrl: `${inject('baseUrl')}/api/v1`, apiKey: 'sk_test_nope' }).listBanks();
    expect(unauthorized).toMatchObject({ status: 'error', httpStatus: 401, message: 'Unauthorized' });
    const live = await createGiftCardClient({ baseUrl: `${inject('baseUrl')}/api/v1`, apiKey: biz.keys.live }).settlePayout('trf_x', 'success');
    expect(live).toMatchObject({ status: 'error', httpStatus: 404 });
  });

  it('sends idempotencyKey: a retry gets the first answer, another body with the same key gets 409', async () => {
    const key = `typed-${Date.now()}`;
    const input = { phone_number: randomPhone(), currency: 'USD' as const, first_name: 'Once' };
    const first = ok(await client.createCard(input, { idempotencyKey: key }), 201);
    const retry = ok(await client.createCard(input, { idempotencyKey: key }), 201);
    expect(retry).toEqual(first);
    const reused = await client.createCard({ ...input, first_name: 'Twice' }, { idempotencyKey: key });
    expect(reused).toMatchObject({ status: 'error', httpStatus: 409, message: 'Idempotency key reused' });
  });

  it('an idempotency key compares the parsed body: the same JSON with its keys reordered is the same request', async () => {
    const key = `reordered-${Date.now()}`;
    const phone = randomPhone();
    const first = ok(await client.createCard({ phone_number: phone, currency: 'USD', first_name: 'Once' }, { idempotencyKey: key }), 201);
    const reordered = ok(await client.createCard({ first_name: 'Once', currency: 'USD', phone_number: phone }, { idempotencyKey: key }), 201);
    expect(reordered).toEqual(first);
    const other = await client.createCard({ first_name: 'Twice', currency: 'USD', phone_number: phone }, { idempotencyKey: key });
    expect(other).toMatchObject({ status: 'error', httpStatus: 409, message: 'Idempotency key reused' });
  });
});
