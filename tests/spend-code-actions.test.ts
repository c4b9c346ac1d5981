import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { runActionAs } from '../lib/actions/define-action';
import { confirmRedemptionAction, redeemCardAction } from '../lib/actions/redemption-actions';
import { tillCaptureAction, tillConfirmAction, tillRedeemAction } from '../lib/actions/till-actions';
import type { DashboardSession } from '../lib/auth/session-types';
import type { Role } from '../lib/auth/users';
import { adminClient, createCard, createTestBusiness, testDb, type TestBusiness } from './helpers';
import { fundCard } from './ledger-helpers';

// runActionAs opens the app's own pool: point it at the tests' database.
process.env.DATABASE_URL = inject('databaseUrl');

async function teammate(biz: TestBusiness, role: Role, locationId?: number): Promise<DashboardSession> {
  const email = `${role}-${randomUUID()}@example.com`;
  const res = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, {
    email,
    password: 'dashboard-pass-123',
    role,
    ...(locationId !== undefined && { location_id: locationId }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const userId = res.body.data.id as number;
  return {
    userId,
    email,
    businessId: biz.id,
    role,
    mode: 'test',
    timeZone: 'Africa/Addis_Ababa',
    country: 'ET',
    actor: { type: 'user', id: String(userId) },
    locationId: locationId ?? null,
  };
}

describe('the cardholder’s code at the till and on the card page', () => {
  it('a cashier’s redemption over the threshold waits for the code, which completes it at their branch; wrong codes are refused on the field', async () => {
    const biz = await createTestBusiness('Spend code actions');
    await adminClient().put(`/api/admin/businesses/${biz.id}/limits`, { mode: 'test', currency: 'ETB', spend_code_over: 100_000 });
    const branch = (await biz.test.post('/api/v1/locations', { name: 'Piassa' })).body.data.id as number;
    const cashier = await teammate(biz, 'cashier', branch);
    const card = (await createCard(biz.test)).card_number as string;
    await fundCard(card, 500_000);

    const waiting = await runActionAs(tillRedeemAction, cashier, { card_number: card, amount: '1500', submission_id: randomUUID() });
    expect(waiting).toMatchObject({ ok: true, data: { kind: 'redemption', amount: 150_000, card_number: card } });
    const reference = waiting.ok && 'confirmation_reference' in waiting.data ? waiting.data.confirmation_reference : '';

    const wrong = await runActionAs(tillConfirmAction, cashier, { confirmation_reference: reference, code: '111111' });
    expect(wrong).toMatchObject({ ok: false, code: 'invalid_code', field: 'code' });
    const malformed = await runActionAs(tillConfirmAction, cashier, { confirmation_reference: reference, code: '12' });
    expect(malformed).toMatchObject({ ok: false, fieldErrors: { code: 'Type the 6 digits the cardholder’s phone got.' } });

    const done = await runActionAs(tillConfirmAction, cashier, { confirmation_reference: reference, code: '000000' });
    expect(done).toMatchObject({ ok: true, data: { amount: 150_000, available_amount: 350_000, location_id: branch } });
    const { rows } = await testDb().execute<{ actor_id: string; location_id: number }>(sql`
      SELECT t.actor_id, t.location_id FROM ledger_transactions t WHERE t.reference = ${done.ok && 'reference' in done.data ? done.data.reference : ''}`);
    expect(rows[0]).toMatchObject({ actor_id: String(cashier.userId), location_id: branch });

    // A capture at the till the same way.
    const hold = (await biz.test.post(`/api/v1/card/${card}/holds`, { amount: 200_000 })).body.data.hold_reference as string;
    const capture = await runActionAs(tillCaptureAction, cashier, { hold_reference: hold, submission_id: randomUUID() });
    expect(capture).toMatchObject({ ok: true, data: { kind: 'capture', hold_reference: hold, amount: 200_000 } });
    const captureRef = capture.ok && 'confirmation_reference' in capture.data ? capture.data.confirmation_reference : '';
    const captured = await runActionAs(tillConfirmAction, cashier, { confirmation_reference: captureRef, code: '000000' });
    expect(captured).toMatchObject({ ok: true, data: { hold_reference: hold, status: 'captured', captured_amount: 200_000 } });

    // The card page's redeem form, for an operator; a support teammate may not complete one.
    const operator = await teammate(biz, 'operator');
    const fromPage = await runActionAs(redeemCardAction, operator, { card_number: card, amount: '1200', submission_id: randomUUID() });
    expect(fromPage).toMatchObject({ ok: true, data: { kind: 'redemption', amount: 120_000 } });
    const pageRef = fromPage.ok && 'confirmation_reference' in fromPage.data ? fromPage.data.confirmation_reference : '';
    const support = await runActionAs(confirmRedemptionAction, await teammate(biz, 'support'), { confirmation_reference: pageRef, code: '000000' });
    expect(support).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await runActionAs(confirmRedemptionAction, operator, { confirmation_reference: pageRef, code: '000000' })).toMatchObject({
      ok: true,
      data: { amount: 120_000, available_amount: 30_000 },
    });
  });
});
