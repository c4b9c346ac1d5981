import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { runActionAs } from '../lib/actions/define-action';
import { refundPaymentAction } from '../lib/actions/refund-actions';
import type { DashboardSession } from '../lib/auth/session-types';
import type { Role } from '../lib/auth/users';
import { adminClient, createCard, createTestBusiness, type TestBusiness } from './helpers';

// runActionAs opens the app's own pool: point it at the tests' database.
process.env.DATABASE_URL = inject('databaseUrl');

async function session(biz: TestBusiness, role: Role): Promise<DashboardSession> {
  const email = `${role}-${randomUUID()}@example.com`;
  const res = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'dashboard-pass-123', role });
  expect(res.status).toBe(201);
  const userId = res.body.data.id as number;
  return { userId, email, businessId: biz.id, role, mode: 'test', timeZone: 'Africa/Addis_Ababa', country: 'ET', actor: { type: 'user', id: String(userId) } };
}

describe('the dashboard’s refund action', () => {
  let biz: TestBusiness;
  let ref: string;
  let card: string;

  beforeAll(async () => {
    biz = await createTestBusiness('Refund actions');
    card = (await createCard(biz.test)).card_number;
    const started = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 5_000, card_number: card });
    ref = started.body.data.link_reference;
    await biz.test.post(`/api/v1/test-helpers/payments/${ref}/complete`, { status: 'success' });
  });

  it('takes the amount in currency units, refunds once per submission, as finance and owner but not operator or support', async () => {
    const finance = await session(biz, 'finance');
    const input = { submission_id: randomUUID(), reference: ref, amount: '12.50', reason: ' Damaged ' };
    const first = await runActionAs(refundPaymentAction, finance, input);
    expect(first).toMatchObject({ ok: true, data: { sent: true, refund: { amount: 1_250, reason: 'Damaged', refunded_amount: 1_250, status: 'succeeded' } } });
    const again = await runActionAs(refundPaymentAction, finance, input);
    expect(again).toEqual(first);
    expect((await biz.test.get(`/api/v1/card/${card}`)).body.data.available_amount).toBe(3_750);

    const owner = await runActionAs(refundPaymentAction, await session(biz, 'owner'), { ...input, submission_id: randomUUID(), amount: '40' });
    expect(owner).toMatchObject({ ok: false, code: 'validation_error', fieldErrors: { amount: expect.stringContaining('37.50 ETB') } });
    for (const role of ['operator', 'support'] as const) {
      const refused = await runActionAs(refundPaymentAction, await session(biz, role), { ...input, submission_id: randomUUID() });
      expect(refused).toMatchObject({ ok: false, code: 'forbidden' });
    }
    const other = await createTestBusiness('Refund actions, other');
    const outsider = await runActionAs(refundPaymentAction, await session(other, 'finance'), { ...input, submission_id: randomUUID() });
    expect(outsider).toMatchObject({ ok: false, code: 'payment_not_found' });
  });

  it('says which balance a refund debited: the card, or the business account once the card was cancelled', async () => {
    const finance = await session(biz, 'finance');
    const number = (await createCard(biz.test)).card_number;
    const started = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 3_000, card_number: number });
    const reference = started.body.data.link_reference as string;
    await biz.test.post(`/api/v1/test-helpers/payments/${reference}/complete`, { status: 'success' });
    const fromCard = await runActionAs(refundPaymentAction, finance, { submission_id: randomUUID(), reference, amount: '5', reason: '' });
    expect(fromCard).toMatchObject({ ok: true, data: { sent: true, debited: 'card' } });
    expect((await biz.test.delete(`/api/v1/card/${number}`)).status).toBe(200);
    const fromBusiness = await runActionAs(refundPaymentAction, finance, { submission_id: randomUUID(), reference, amount: '5', reason: '' });
    expect(fromBusiness).toMatchObject({ ok: true, data: { sent: true, debited: 'business_account', refund: { amount: 500, refunded_amount: 1_000 } } });
  });
});
