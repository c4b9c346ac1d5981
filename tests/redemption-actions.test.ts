import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { runActionAs } from '../lib/actions/define-action';
import { redeemCardAction } from '../lib/actions/redemption-actions';
import type { DashboardSession } from '../lib/auth/session-types';
import type { Role } from '../lib/auth/users';
import { adminClient, createCard, createTestBusiness, type TestBusiness } from './helpers';
import { fundCard } from './ledger-helpers';

// runActionAs opens the app's own pool: point it at the tests' database.
process.env.DATABASE_URL = inject('databaseUrl');

async function session(biz: TestBusiness, role: Role): Promise<DashboardSession> {
  const email = `${role}-${randomUUID()}@example.com`;
  const res = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'dashboard-pass-123', role });
  expect(res.status).toBe(201);
  const userId = res.body.data.id as number;
  return { userId, email, businessId: biz.id, role, mode: 'test', timeZone: 'Africa/Addis_Ababa', country: 'ET', actor: { type: 'user', id: String(userId) } };
}

describe('the dashboard’s redeem action', () => {
  it('takes the amount in currency units, redeems once per submission, as operator and owner but not finance or support', async () => {
    const biz = await createTestBusiness('Redeem actions');
    const card = (await createCard(biz.test)).card_number as string;
    await fundCard(card, 5_000);
    const operator = await session(biz, 'operator');
    const input = { card_number: card, submission_id: randomUUID(), amount: '12.50', merchant_reference: ' Till 1 ' };
    const first = await runActionAs(redeemCardAction, operator, input);
    expect(first).toMatchObject({ ok: true, data: { amount: 1_250, fee: 0, merchant_reference: 'Till 1', available_amount: 3_750 } });
    expect(await runActionAs(redeemCardAction, operator, input)).toEqual(first);
    expect((await biz.test.get(`/api/v1/card/${card}`)).body.data.available_amount).toBe(3_750);

    const owner = await runActionAs(redeemCardAction, await session(biz, 'owner'), { ...input, submission_id: randomUUID(), amount: '40' });
    expect(owner).toMatchObject({ ok: false, code: 'insufficient_balance', field: 'amount' });
    // A large amount over the balance is refused for that first, never asked to be confirmed; it redeems nothing.
    const over = await runActionAs(redeemCardAction, operator, { ...input, submission_id: randomUUID(), amount: '1000000' });
    expect(over).toMatchObject({ ok: false, code: 'insufficient_balance', field: 'amount' });
    expect((await biz.test.get(`/api/v1/card/${card}`)).body.data.available_amount).toBe(3_750);
    // One the card holds needs the dialog's yes, which the server holds the form to.
    await fundCard(card, 100_000_000);
    const large = await runActionAs(redeemCardAction, operator, { ...input, submission_id: randomUUID(), amount: '1000000' });
    expect(large).toMatchObject({ ok: false, code: 'validation_error', fieldErrors: { confirmed: expect.any(String) } });
    for (const role of ['finance', 'support'] as const) {
      const refused = await runActionAs(redeemCardAction, await session(biz, role), { ...input, submission_id: randomUUID() });
      expect(refused).toMatchObject({ ok: false, code: 'forbidden' });
    }
    const other = await createTestBusiness('Redeem actions, other');
    const outsider = await runActionAs(redeemCardAction, await session(other, 'operator'), { ...input, submission_id: randomUUID() });
    expect(outsider).toMatchObject({ ok: false, code: 'card_not_found' });
    expect((await biz.test.get(`/api/v1/card/${card}`)).body.data.available_amount).toBe(100_003_750);
  });
});
