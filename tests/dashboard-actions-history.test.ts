import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { DashboardSession } from '../lib/auth/session-types';
import type { Role } from '../lib/auth/users';
import { ALL_ACTIONS } from '../lib/actions/all-actions';
import { topUpCardAction } from '../lib/actions/card-actions';
import { runActionAs } from '../lib/actions/define-action';
import { startPayment } from '../lib/actions/payment-actions';
import { checkPayout, previewPayout, sendPayout } from '../lib/actions/payout-actions';
import { adminClient, createCard, createTestBusiness, testDb, type TestBusiness } from './helpers';

// The actions run in this process against the tests' database, as the server would run them.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.APP_URL ??= inject('baseUrl');

const session = (biz: TestBusiness, role: Role, userId = 900_000 + biz.id): DashboardSession => ({
  userId,
  email: `${role}@example.com`,
  businessId: biz.id,
  role,
  mode: 'test',
  timeZone: 'Africa/Addis_Ababa',
  country: 'ET',
  actor: { type: 'user', id: String(userId) },
});

async function fundedCard(biz: TestBusiness, amount: number) {
  const card = await createCard(biz.test);
  expect((await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount })).status).toBe(200);
  const transfer = await biz.test.post('/api/v1/transfers', { amount, bank_slug: 'link', account_number: card.card_number, account_name: 'Float' });
  expect(transfer.status).toBe(200);
  const settled = await biz.test.post(`/api/v1/test-helpers/payouts/${transfer.body.data.provider_reference}/settle`, { status: 'success' });
  expect(settled.status).toBe(200);
  return card;
}

async function balanceOf(cardNumber: string): Promise<number> {
  const r = await testDb().execute<{ balance: number }>(
    sql`SELECT a.balance FROM cards c JOIN ledger_accounts a ON a.id = c.account_id WHERE c.card_number = ${cardNumber}`,
  );
  return Number(r.rows[0].balance);
}

let a: TestBusiness;
let b: TestBusiness;
let source: { card_number: string };
let destination: { card_number: string };

beforeAll(async () => {
  [a, b] = await Promise.all([createTestBusiness('History A'), createTestBusiness('History B')]);
  source = await fundedCard(a, 50_000);
  destination = await createCard(a.test);
  expect(
    (await adminClient().put(`/api/admin/businesses/${a.id}/fees`, { mode: 'test', rules: [{ applies_to: 'card_to_card', percent: '1.5', fixed: 10 }] }))
      .status,
  ).toBe(200);
});

const payoutInput = () => ({
  submission_id: randomUUID(),
  card_number: source.card_number,
  destination_type: 'card_to_card',
  destination_card_number: destination.card_number,
  amount: '10.00',
  charge_payer: 'sender',
  // The dialog's yes: a card-to-card payout is always confirmed first.
  confirmed: true,
});
const paymentInput = () => ({ submission_id: randomUUID(), type: 'hosted', card_number: source.card_number, amount: '5' });

describe('payout and payment actions', () => {
  it('are registered in ALL_ACTIONS with money:move', () => {
    for (const def of [previewPayout, checkPayout, sendPayout, startPayment]) {
      expect(ALL_ACTIONS).toContain(def);
      expect(def.permission).toBe('money:move');
    }
  });

  it('refuse support and finance, and move nothing', async () => {
    const before = await balanceOf(source.card_number);
    for (const role of ['support', 'finance'] as const) {
      for (const [def, input] of [
        [sendPayout, payoutInput()],
        [previewPayout, payoutInput()],
        [startPayment, paymentInput()],
      ] as const) {
        const res = await runActionAs(def as typeof sendPayout, session(a, role), input);
        expect(res, `${def.name} as ${role}`).toMatchObject({ ok: false, message: expect.stringMatching(/^Forbidden/) });
      }
    }
    expect(await balanceOf(source.card_number)).toBe(before);
  });

  it('refuse a signed-out caller', async () => {
    expect(await runActionAs(sendPayout, null, payoutInput())).toMatchObject({ ok: false, message: expect.stringMatching(/^Unauthorized/) });
  });

  it('refuse an operator of another business: the card is not found, nothing moves', async () => {
    const before = await balanceOf(source.card_number);
    const other = session(b, 'operator');
    expect(await runActionAs(sendPayout, other, payoutInput())).toMatchObject({ ok: false, message: expect.stringMatching(/^Gift card not found/) });
    expect(await runActionAs(previewPayout, other, payoutInput())).toMatchObject({ ok: false, message: expect.stringMatching(/^Gift card not found/) });
    expect(await runActionAs(startPayment, other, paymentInput())).toMatchObject({ ok: false, message: expect.stringMatching(/^Gift card not found/) });
    expect(await balanceOf(source.card_number)).toBe(before);
  });

  it('preview uses the business fee schedule and the payer rule', async () => {
    const sender = await runActionAs(previewPayout, session(a, 'operator'), payoutInput());
    // 1.5% of 1000 = 15, + 10 fixed
    expect(sender).toMatchObject({ ok: true, data: { currency: 'ETB', amount: 1000, fee: 25, debit: 1025, credit: 1000, sufficient: true } });
    const receiver = await runActionAs(previewPayout, session(a, 'operator'), { ...payoutInput(), charge_payer: 'receiver' });
    expect(receiver).toMatchObject({ ok: true, data: { fee: 25, debit: 1000, credit: 975 } });
    const wrongPayer = await runActionAs(previewPayout, session(a, 'operator'), { ...payoutInput(), charge_payer: 'business' });
    expect(wrongPayer).toMatchObject({ ok: false, fieldErrors: { charge_payer: expect.any(String) } });
  });

  it('a double submission of one form moves money once, by the user recorded as actor', async () => {
    const before = await balanceOf(source.card_number);
    const input = payoutInput();
    const operator = session(a, 'operator');
    const results = await Promise.all([runActionAs(sendPayout, operator, input), runActionAs(sendPayout, operator, input)]);
    const ok = results.filter((r) => r.ok);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    // The loser either replays the winner's answer or is told the first is still running.
    for (const r of results) if (!r.ok) expect(r.message).toMatch(/^Request in progress/);
    const again = await runActionAs(sendPayout, operator, input);
    expect(again).toEqual(ok[0]);
    expect(await balanceOf(source.card_number)).toBe(before - 1025);
    const reference = (ok[0] as { data: { reference: string } }).data.reference;
    const rows = await testDb().execute<{ actor_type: string; actor_id: string; n: number }>(
      sql`SELECT actor_type, actor_id, count(*) OVER () AS n FROM payouts WHERE reference = ${reference}`,
    );
    expect(rows.rows).toEqual([{ actor_type: 'user', actor_id: String(operator.userId), n: 1 }]);
  });

  it('puts core refusals on the form: insufficient balance, unknown destination', async () => {
    const operator = session(a, 'operator');
    expect(await runActionAs(sendPayout, operator, { ...payoutInput(), amount: '100000' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Insufficient balance/),
    });
    expect(await runActionAs(sendPayout, operator, { ...payoutInput(), destination_card_number: '4000000000000002' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Destination card not found/),
    });
    expect(await runActionAs(sendPayout, operator, { ...payoutInput(), amount: '10.005' })).toMatchObject({
      ok: false,
      fieldErrors: { amount: expect.any(String) },
    });
  });

  it('starts a hosted payment once per submission', async () => {
    const input = paymentInput();
    const first = await runActionAs(startPayment, session(a, 'owner'), input);
    expect(first).toMatchObject({
      ok: true,
      data: { status: 'PENDING', amount: 500, card_number: source.card_number, checkout_url: expect.stringContaining('/checkout/pay') },
    });
    expect(await runActionAs(startPayment, session(a, 'owner'), input)).toEqual(first);
    const count = await testDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM payments WHERE business_id = ${a.id} AND actor_type = 'user'`);
    expect(count.rows[0].n).toBe(1);
  });
});

describe('the confirmation the forms ask for', () => {
  const refused = { ok: false, code: 'validation_error', fieldErrors: { confirmed: 'Confirm this in the dialog before it is sent.' } };
  const payoutCount = async () => (await testDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM payouts WHERE business_id = ${a.id}`)).rows[0].n;
  const paymentCount = async () => (await testDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM payments WHERE business_id = ${a.id}`)).rows[0].n;

  it('is required by the server for card-to-card payouts, and moves nothing without it', async () => {
    const before = [await payoutCount(), await balanceOf(source.card_number)];
    const { confirmed: _, ...unconfirmed } = payoutInput();
    expect(await runActionAs(sendPayout, session(a, 'operator'), unconfirmed)).toMatchObject(refused);
    expect(await runActionAs(sendPayout, session(a, 'operator'), { ...unconfirmed, confirmed: false })).toMatchObject(refused);
    expect([await payoutCount(), await balanceOf(source.card_number)]).toEqual(before);
  });

  it('is not needed for a small bank payout, and is for a large one', async () => {
    const bank = {
      ...payoutInput(),
      destination_type: 'bank',
      charge_payer: 'business',
      bank_slug: 'cbe',
      account_number: '1000123456789',
      account_name: 'Abebe',
    };
    const { confirmed: _, destination_card_number: __, ...small } = bank;
    expect(await runActionAs(sendPayout, session(a, 'operator'), { ...small, amount: '2.00' })).toMatchObject({ ok: true });
    expect(await runActionAs(sendPayout, session(a, 'operator'), { ...small, submission_id: randomUUID(), amount: '100,000' })).toMatchObject(refused);
  });

  it('is asked only of a payout its own statement would take: checkPayout refuses one over a limit, and moves nothing', async () => {
    const before = [await payoutCount(), await balanceOf(source.card_number)];
    const maxPayout = (max_payout: number | null) => adminClient().put(`/api/admin/businesses/${a.id}/limits`, { mode: 'test', currency: 'ETB', max_payout });
    expect((await maxPayout(500)).status).toBe(200);
    try {
      expect(await runActionAs(checkPayout, session(a, 'operator'), payoutInput())).toMatchObject({
        ok: false,
        code: 'limit_exceeded',
        field: 'amount',
        message: expect.stringContaining('This payout exceeds the maximum payout limit of 5.00 ETB.'),
      });
    } finally {
      expect((await maxPayout(null)).status).toBe(200);
    }
    expect(await runActionAs(checkPayout, session(a, 'operator'), payoutInput())).toMatchObject({ ok: true, data: { passes: true } });
    expect([await payoutCount(), await balanceOf(source.card_number)]).toEqual(before);
  });

  it('is required for payment links of 100,000.00 or more', async () => {
    const before = await paymentCount();
    expect(await runActionAs(startPayment, session(a, 'operator'), { ...paymentInput(), amount: '100000' })).toMatchObject(refused);
    expect(await paymentCount()).toBe(before);
    expect(await runActionAs(startPayment, session(a, 'operator'), { ...paymentInput(), amount: '100000', confirmed: true })).toMatchObject({ ok: true });
    expect(await runActionAs(startPayment, session(a, 'operator'), { ...paymentInput(), amount: '99,999.99' })).toMatchObject({ ok: true });
  });

  it('is required for a card top-up of 100,000.00 or more, from a link or the business balance', async () => {
    const input = (source_: 'link' | 'business') => ({ card_number: source.card_number, source: source_, amount: '100000', submission_id: randomUUID() });
    expect(await runActionAs(topUpCardAction, session(a, 'operator'), input('link'))).toMatchObject(refused);
    // A top-up the business balance cannot pay is refused for that first, never asked to be confirmed; nothing moves.
    const before = await payoutCount();
    expect(await runActionAs(topUpCardAction, session(a, 'operator'), input('business'))).toMatchObject({ ok: false, code: 'insufficient_balance' });
    expect(await payoutCount()).toBe(before);
    expect((await adminClient().post(`/api/admin/businesses/${a.id}/balance`, { mode: 'test', currency: 'ETB', amount: 10_000_000 })).status).toBe(200);
    expect(await runActionAs(topUpCardAction, session(a, 'operator'), input('business'))).toMatchObject(refused);
    expect(await payoutCount()).toBe(before);
    const link = { card_number: source.card_number, source: 'link', amount: '100000', submission_id: randomUUID(), confirmed: true };
    expect(await runActionAs(topUpCardAction, session(a, 'operator'), link)).toMatchObject({ ok: true });
  });
});
