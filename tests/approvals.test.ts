import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sendPayout } from '../lib/actions/payout-actions';
import { runActionAs } from '../lib/actions/define-action';
import { requestAdjustment } from '../lib/approvals/request-adjustment';
import { setApprovalThreshold } from '../lib/approvals/approval-thresholds';
import { sendDashboardPayout } from '../lib/approvals/dashboard-payout';
import { refundFromDashboard } from '../lib/approvals/dashboard-refund';
import { approveRequest, rejectRequest } from '../lib/approvals/decide-approval';
import { expireApprovals, failApprovalOfExpiredCard } from '../lib/approvals/expire-approvals';
import { listApprovals } from '../lib/approvals/list-approvals';
import { expireDueCards } from '../lib/cards/expire-cards';
import type { DashboardSession } from '../lib/auth/session-types';
import type { Role } from '../lib/auth/users';
import { cardStory } from '../lib/dashboard/card-story';
import { dayIn } from '../lib/time-zone';
import { ServiceError } from '../lib/errors';
import { verifyLedger } from '../lib/ledger/verify-ledger';
import { liabilityReport } from '../lib/reports/liability/query';
import { reconciliationReport } from '../lib/reports/reconciliation/report';
import { statementPage } from '../lib/reports/business-statement';
import { adminClient, createCard, createTestBusiness, testDb, type TestBusiness } from './helpers';
import { businessBalance, fundCard } from './ledger-helpers';

// runActionAs opens the app's own pool: point it at the tests' database.
process.env.DATABASE_URL = inject('databaseUrl');

const TZ = 'Africa/Addis_Ababa';
let biz: TestBusiness;
const users = {} as Record<Role, number>;
const scope = () => ({ businessId: biz.id, mode: 'test' as const });

async function addUser(role: Role): Promise<number> {
  const res = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, {
    email: `${role}-${randomUUID()}@example.com`,
    password: 'dashboard-pass-123',
    role,
  });
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

async function card(amount: number) {
  const c = await createCard(biz.test);
  if (amount > 0) await fundCard(c.card_number, amount);
  return c.card_number;
}

/** The card as the API answers it: available_amount and held_amount. */
async function apiCard(number: string) {
  const res = await biz.test.get(`/api/v1/card/${number}`);
  expect(res.status).toBe(200);
  return res.body.data as { available_amount: number; held_amount: number };
}

/** A card-to-card payout from the dashboard, as the operator, that waits for approval (the threshold is 500.00). */
async function waitingPayout(from: string, to: string, amount: number) {
  const result = await sendDashboardPayout(testDb(), { ...scope(), userId: users.operator, input: { card_number: from, destination_card_number: to, amount } });
  expect(result.sent).toBe(false);
  if (result.sent) throw new Error('paid at once');
  return result.approval.reference;
}

async function status(reference: string) {
  const { rows } = await testDb().execute<{ status: string; failure_reason: string | null; result_reference: string | null }>(
    sql`SELECT status, failure_reason, result_reference FROM approval_requests WHERE reference = ${reference}`,
  );
  return rows[0];
}

const errorCode = (r: PromiseSettledResult<unknown>) => (r.status === 'rejected' && r.reason instanceof ServiceError ? r.reason.code : null);

async function expectLedgerClean() {
  const report = await verifyLedger(testDb());
  expect(report.problems).toEqual([]);
  // The held account never holds more or less than the open holds.
  const { rows } = await testDb().execute<{ held: number; open: number }>(sql`
    SELECT coalesce((SELECT sum(balance) FROM ledger_accounts WHERE kind = 'held' AND business_id = ${biz.id}), 0)::bigint AS held,
           coalesce((SELECT sum(amount) FROM holds WHERE business_id = ${biz.id} AND status = 'open'), 0)::bigint AS open`);
  expect(Number(rows[0].held)).toBe(Number(rows[0].open));
}

beforeAll(async () => {
  biz = await createTestBusiness('Approvals');
  for (const role of ['owner', 'operator', 'finance'] as const) users[role] = await addUser(role);
  await setApprovalThreshold(testDb(), { ...scope(), userId: users.owner, currency: 'ETB', amount: 50_000 });
  const funded = await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 1_000_000 });
  expect(funded.status).toBe(200);
});

describe('a dashboard payout at or above the threshold', () => {
  it('pays at once below it, and waits at it with its money held: available drops, held_amount shows it', async () => {
    const [from, to] = [await card(100_000), await card(0)];
    const below = await sendDashboardPayout(testDb(), {
      ...scope(),
      userId: users.operator,
      input: { card_number: from, destination_card_number: to, amount: 49_999 },
    });
    expect(below.sent).toBe(true);
    const reference = await waitingPayout(from, to, 50_000);
    expect(await apiCard(from)).toMatchObject({ available_amount: 100_000 - 49_999 - 50_000, held_amount: 50_000 });
    expect(await apiCard(to)).toMatchObject({ available_amount: 49_999, held_amount: 0 });
    expect(await status(reference)).toMatchObject({ status: 'awaiting_approval' });
    // The liability still counts held card money as owed, apart from the balances.
    const liability = await liabilityReport(testDb(), { ...scope(), timeZone: TZ, day: dayIn(TZ, new Date()), dormantDays: 365 });
    expect(liability.currencies.find((c) => c.currency === 'ETB')).toMatchObject({ heldForApproval: 50_000 });
    await expectLedgerClean();
  });

  it('the send action answers the approval, not a payout', async () => {
    const [from, to] = [await card(80_000), await card(0)];
    const session: DashboardSession = {
      userId: users.operator,
      email: 'operator@example.com',
      businessId: biz.id,
      role: 'operator',
      mode: 'test',
      timeZone: TZ,
      country: 'ET',
      actor: { type: 'user', id: String(users.operator) },
    };
    const result = await runActionAs(sendPayout, session, {
      submission_id: randomUUID(),
      card_number: from,
      destination_type: 'card_to_card',
      destination_card_number: to,
      amount: '600',
      charge_payer: 'sender',
      confirmed: true,
    });
    expect(result).toMatchObject({ ok: true, data: { approval: { amount: 60_000, currency: 'ETB' } } });
    expect(await apiCard(from)).toMatchObject({ available_amount: 20_000, held_amount: 60_000 });
  });

  it('held money cannot be spent by an API payout meanwhile', async () => {
    const [from, to] = [await card(100_000), await card(0)];
    await waitingPayout(from, to, 70_000);
    const all = await biz.test.post('/api/v1/card/payouts', { card_number: from, destination_card_number: to, amount: 100_000 });
    expect(all.status).toBe(400);
    expect(all.body.message).toMatch(/^Insufficient balance/);
    const rest = await biz.test.post('/api/v1/card/payouts', { card_number: from, destination_card_number: to, amount: 30_000 });
    expect(rest.status).toBe(200);
    expect(await apiCard(from)).toMatchObject({ available_amount: 0, held_amount: 70_000 });
    await expectLedgerClean();
  });

  it('is refused, holding nothing, when the card does not hold it', async () => {
    const [from, to] = [await card(60_000), await card(0)];
    await expect(
      sendDashboardPayout(testDb(), { ...scope(), userId: users.operator, input: { card_number: from, destination_card_number: to, amount: 60_001 } }),
    ).rejects.toMatchObject({ code: 'insufficient_balance' });
    expect(await apiCard(from)).toMatchObject({ available_amount: 60_000, held_amount: 0 });
  });
});

describe('deciding', () => {
  it('the maker can never approve their own request', async () => {
    const [from, to] = [await card(60_000), await card(0)];
    const reference = await waitingPayout(from, to, 60_000);
    await expect(approveRequest(testDb(), { ...scope(), reference, userId: users.operator })).rejects.toMatchObject({ code: 'forbidden' });
    // Nor reject it as an approver would; withdrawing is theirs alone.
    await expect(rejectRequest(testDb(), { ...scope(), reference, userId: users.operator, asMaker: false })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(rejectRequest(testDb(), { ...scope(), reference, userId: users.finance, asMaker: true })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await status(reference)).toMatchObject({ status: 'awaiting_approval' });
    const withdrawn = await rejectRequest(testDb(), { ...scope(), reference, userId: users.operator, asMaker: true });
    expect(withdrawn.status).toBe('rejected');
    expect(await apiCard(from)).toMatchObject({ available_amount: 60_000, held_amount: 0 });
    // Its maker withdrew it: it reads withdrawn, not rejected, wherever it is listed.
    const [listed] = await listApprovals(testDb(), { ...scope(), view: { reference }, limit: 1 });
    expect(listed.status).toBe('withdrawn');
  });

  it('two approvers at once: exactly one wins, and the payout is made once', async () => {
    for (let round = 0; round < 5; round++) {
      const [from, to] = [await card(100_000), await card(0)];
      const reference = await waitingPayout(from, to, 100_000);
      const results = await Promise.allSettled([
        approveRequest(testDb(), { ...scope(), reference, userId: users.owner }),
        approveRequest(testDb(), { ...scope(), reference, userId: users.finance }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.map(errorCode).filter(Boolean)).toEqual(['already_decided']);
      const won = results.find((r) => r.status === 'fulfilled')!.value;
      expect(won).toMatchObject({ status: 'approved', failureReason: null });
      expect(await apiCard(from)).toMatchObject({ available_amount: 0, held_amount: 0 });
      expect(await apiCard(to)).toMatchObject({ available_amount: 100_000 });
      const payout = await biz.test.get(`/api/v1/card/payout/${won.resultReference}/status`);
      expect(payout.body.data).toMatchObject({ amount: 100_000, status: 'success' });
    }
    await expectLedgerClean();
  });

  it('approve against reject at once: exactly one decision stands', async () => {
    const [from, to] = [await card(90_000), await card(0)];
    const reference = await waitingPayout(from, to, 90_000);
    const results = await Promise.allSettled([
      approveRequest(testDb(), { ...scope(), reference, userId: users.owner }),
      rejectRequest(testDb(), { ...scope(), reference, userId: users.finance, note: 'not today', asMaker: false }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const final = await status(reference);
    const destination = await apiCard(to);
    if (final.status === 'approved') expect(destination.available_amount).toBe(90_000);
    else {
      expect(final.status).toBe('rejected');
      expect(await apiCard(from)).toMatchObject({ available_amount: 90_000, held_amount: 0 });
    }
    await expectLedgerClean();
  });

  it('a payout refused on approval fails with its reason, and its money comes back', async () => {
    const [from, to] = [await card(70_000), await card(0)];
    const reference = await waitingPayout(from, to, 70_000);
    expect((await biz.test.patch(`/api/v1/card/${from}`, { status: 'disable' })).status).toBe(200);
    const decision = await approveRequest(testDb(), { ...scope(), reference, userId: users.finance });
    expect(decision.status).toBe('failed');
    expect(decision.failureReason).toMatch(/^Gift card disabled/);
    expect(await status(reference)).toMatchObject({ status: 'failed', failure_reason: decision.failureReason });
    await biz.test.patch(`/api/v1/card/${from}`, { status: 'enable' });
    expect(await apiCard(from)).toMatchObject({ available_amount: 70_000, held_amount: 0 });
    expect(await apiCard(to)).toMatchObject({ available_amount: 0 });
    await expectLedgerClean();
  });
});

describe('expiry', () => {
  it('after 72 hours the sweep releases the hold, once, however many instances sweep; a late approval is refused', async () => {
    const from = await card(150_000);
    const to = await card(0);
    const references = [await waitingPayout(from, to, 50_000), await waitingPayout(from, to, 50_000), await waitingPayout(from, to, 50_000)];
    expect(await apiCard(from)).toMatchObject({ available_amount: 0, held_amount: 150_000 });
    await testDb().execute(sql`UPDATE approval_requests SET expires_at = now() - interval '1 second' WHERE reference IN ${references}`);
    await expect(approveRequest(testDb(), { ...scope(), reference: references[0], userId: users.owner })).rejects.toMatchObject({ code: 'already_decided' });
    // Two app instances sweeping at once.
    await Promise.all([expireApprovals(testDb()), expireApprovals(testDb())]);
    for (const r of references) expect(await status(r)).toMatchObject({ status: 'expired' });
    expect(await apiCard(from)).toMatchObject({ available_amount: 150_000, held_amount: 0 });
    const { rows } = await testDb().execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM ledger_transactions WHERE kind = 'hold_release' AND reference IN ${references}`);
    expect(rows[0].n).toBe(3);
    const story = await cardStory(testDb(), { ...scope(), cardNumber: from, limit: 50 });
    expect(story.events.filter((e) => e.title === 'Payout expired after 72 hours: its money was released')).toHaveLength(3);
    await expectLedgerClean();
  });
});

describe('approval against expiry', () => {
  it('a request that falls due while it is being approved is either approved or expired, never both', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const [from, to] = [await card(60_000), await card(0)];
      const reference = await waitingPayout(from, to, 60_000);
      // Due at once in the first round, then a few milliseconds later each round, so the two meet at different points.
      await testDb().execute(sql`UPDATE approval_requests SET expires_at = now() + make_interval(secs => ${round * 0.006}) WHERE reference = ${reference}`);
      // The sweep runs until the request is no longer waiting, whoever ends it.
      const sweep = (async () => {
        while ((await status(reference)).status === 'awaiting_approval') await expireApprovals(testDb());
      })();
      const [approval] = await Promise.allSettled([approveRequest(testDb(), { ...scope(), reference, userId: users.finance }), sweep]);
      const final = (await status(reference)).status;
      outcomes.add(final);
      if (final === 'approved') {
        expect(approval.status).toBe('fulfilled');
        expect(await apiCard(to)).toMatchObject({ available_amount: 60_000 });
        expect(await apiCard(from)).toMatchObject({ available_amount: 0, held_amount: 0 });
      } else {
        expect(final).toBe('expired');
        expect(errorCode(approval)).toBe('already_decided');
        expect(await apiCard(to)).toMatchObject({ available_amount: 0 });
        expect(await apiCard(from)).toMatchObject({ available_amount: 60_000, held_amount: 0 });
      }
      const { rows } = await testDb().execute<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM ledger_transactions WHERE kind = 'hold_release' AND reference = ${reference}`);
      expect(rows[0].n).toBe(1);
    }
    console.log(`approval against expiry, outcomes seen: ${[...outcomes].join(', ')}`);
    expect(outcomes).toContain('expired');
    await expectLedgerClean();
  });
});

describe('manual adjustments', () => {
  it('always wait; increase holds the business account, decrease the card; both post on approval and show in the story and the reports', async () => {
    const number = await card(10_000);
    const business = await businessBalance(biz.id, 'test', 'ETB');
    const up = await requestAdjustment(testDb(), {
      ...scope(),
      userId: users.operator,
      cardNumber: number,
      direction: 'increase',
      amount: 20_000,
      reasonCode: 'goodwill',
    });
    expect(await businessBalance(biz.id, 'test', 'ETB')).toBe(business - 20_000);
    expect(await apiCard(number)).toMatchObject({ available_amount: 10_000, held_amount: 0 });
    await expect(
      requestAdjustment(testDb(), { ...scope(), userId: users.operator, cardNumber: number, direction: 'decrease', amount: 5_000, reasonCode: 'other' }),
    ).rejects.toMatchObject({ code: 'validation_error', detail: { note: expect.any(String) } });
    await expect(
      requestAdjustment(testDb(), { ...scope(), userId: users.operator, cardNumber: number, direction: 'decrease', amount: 10_001, reasonCode: 'chargeback' }),
    ).rejects.toMatchObject({ code: 'insufficient_balance' });

    expect(await approveRequest(testDb(), { ...scope(), reference: up.reference, userId: users.finance })).toMatchObject({ status: 'approved' });
    expect(await apiCard(number)).toMatchObject({ available_amount: 30_000, held_amount: 0 });

    const down = await requestAdjustment(testDb(), {
      ...scope(),
      userId: users.operator,
      cardNumber: number,
      direction: 'decrease',
      amount: 5_000,
      reasonCode: 'other',
      note: 'double top-up',
    });
    expect(await apiCard(number)).toMatchObject({ available_amount: 25_000, held_amount: 5_000 });
    expect(await approveRequest(testDb(), { ...scope(), reference: down.reference, userId: users.owner })).toMatchObject({ status: 'approved' });
    expect(await apiCard(number)).toMatchObject({ available_amount: 25_000, held_amount: 0 });
    expect(await businessBalance(biz.id, 'test', 'ETB')).toBe(business - 20_000 + 5_000);

    const story = await cardStory(testDb(), { ...scope(), cardNumber: number, limit: 50 });
    const titles = story.events.map((e) => e.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Adjustment: added by the business',
        'Adjustment: taken back by the business',
        'Adjustment (add to the card) sent for approval',
        'Adjustment (add to the card) approved',
        'Adjustment (take from the card) approved',
      ]),
    );
    expect(story.events.find((e) => e.title === 'Adjustment: added by the business')).toMatchObject({ amount: 20_000, balanceAfter: 30_000 });
    expect(story.events.find((e) => e.title === 'Adjustment (take from the card) sent for approval')?.detail).toMatch(/other: double top-up/);

    const today = dayIn(TZ, new Date());
    const recon = await reconciliationReport(testDb(), { ...scope(), timeZone: TZ, from: today, to: today, currency: 'ETB' });
    const day = recon.days[0];
    expect(day.problems).toEqual([]);
    expect(day.reconciles).toBe(true);
    expect(day.figures.adjustmentsIn).toBe(25_000);
    expect(day.figures.adjustmentsOut).toBe(25_000);
    const statement = await statementPage(testDb(), { ...scope(), timeZone: TZ, currency: 'ETB', from: today, to: today, limit: 500 });
    const mine = statement.lines.filter((l) => l.cardNumber === number);
    expect(mine.map((l) => [l.kind, l.amount])).toEqual([
      ['held', -20_000],
      ['released', 20_000],
      ['adjustment_to_card', -20_000],
      ['adjustment_from_card', 5_000],
    ]);
    expect(mine[2].description).toBe(`Adjustment added to card ${number}`);
    const liability = await liabilityReport(testDb(), { ...scope(), timeZone: TZ, day: today, dormantDays: 365 });
    const etb = liability.currencies.find((c) => c.currency === 'ETB')!;
    expect(etb.balance).toBe(etb.ledgerBalanceNow);
    await expectLedgerClean();
  });

  it('a cancelled card’s held money goes to the business account when released', async () => {
    const number = await card(8_000);
    const down = await requestAdjustment(testDb(), {
      ...scope(),
      userId: users.operator,
      cardNumber: number,
      direction: 'decrease',
      amount: 8_000,
      reasonCode: 'fraud_recovery',
    });
    const business = await businessBalance(biz.id, 'test', 'ETB');
    expect((await biz.test.delete(`/api/v1/card/${number}`)).status).toBe(200);
    const decision = await approveRequest(testDb(), { ...scope(), reference: down.reference, userId: users.owner });
    expect(decision.status).toBe('failed');
    expect(await businessBalance(biz.id, 'test', 'ETB')).toBe(business + 8_000);
    await expectLedgerClean();
  });
});

describe('a dashboard refund at or above the threshold', () => {
  /** A paid hosted top-up of `amount` on a new card. */
  async function paidTopUp(amount: number) {
    const number = await card(0);
    const created = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount, card_number: number });
    expect(created.status).toBe(201);
    const reference = created.body.data.link_reference as string;
    const done = await biz.test.post(`/api/v1/test-helpers/payments/${reference}/complete`, { status: 'success' });
    expect(done.status).toBe(200);
    return { number, reference };
  }
  const refunded = async (reference: string) =>
    Number((await testDb().execute<{ r: number }>(sql`SELECT refunded_amount AS r FROM payments WHERE link_reference = ${reference}`)).rows[0].r);

  it('refunds at once below it; at it, holds the amount on the card until another teammate approves, then refunds once', async () => {
    const { number, reference } = await paidTopUp(80_000);
    const below = await refundFromDashboard(testDb(), { ...scope(), userId: users.finance, reference, amount: 10_000 });
    expect(below.sent).toBe(true);
    const waiting = await refundFromDashboard(testDb(), {
      ...scope(),
      userId: users.finance,
      reference,
      amount: 50_000,
      reason: 'Customer returned the order',
    });
    if (waiting.sent) throw new Error('refunded at once');
    expect(await apiCard(number)).toMatchObject({ available_amount: 80_000 - 10_000 - 50_000, held_amount: 50_000 });
    expect(await refunded(reference)).toBe(10_000);
    // The held money cannot be spent meanwhile: a payout of more than what is left available is refused.
    const spend = await biz.test.post('/api/v1/card/payouts', { card_number: number, destination_card_number: await card(0), amount: 20_001 });
    expect(spend.status).toBe(400);
    await expect(approveRequest(testDb(), { ...scope(), reference: waiting.approval.reference, userId: users.finance })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await approveRequest(testDb(), { ...scope(), reference: waiting.approval.reference, userId: users.owner });
    expect(await status(waiting.approval.reference)).toMatchObject({ status: 'approved' });
    expect(await refunded(reference)).toBe(60_000);
    expect(await apiCard(number)).toMatchObject({ available_amount: 20_000, held_amount: 0 });
    await expectLedgerClean();
  });

  it('a rejected refund gives the held amount back and refunds nothing', async () => {
    const { number, reference } = await paidTopUp(70_000);
    const waiting = await refundFromDashboard(testDb(), { ...scope(), userId: users.finance, reference });
    if (waiting.sent) throw new Error('refunded at once');
    expect(waiting.approval.amount).toBe(70_000);
    expect(await apiCard(number)).toMatchObject({ available_amount: 0, held_amount: 70_000 });
    await rejectRequest(testDb(), { ...scope(), reference: waiting.approval.reference, userId: users.owner, asMaker: false });
    expect((await listApprovals(testDb(), { ...scope(), view: { reference: waiting.approval.reference }, limit: 1 }))[0].status).toBe('rejected');
    expect(await apiCard(number)).toMatchObject({ available_amount: 70_000, held_amount: 0 });
    expect(await refunded(reference)).toBe(0);
    await expectLedgerClean();
  });
});

describe('limits on approval', () => {
  /** The test business's ETB limits in test mode; a limit left out is none (the back office replaces the currency's whole set). */
  const setLimits = (l: { max_payout?: number; max_card_balance?: number }) =>
    adminClient().put(`/api/admin/businesses/${biz.id}/limits`, {
      mode: 'test',
      currency: 'ETB',
      max_payout: l.max_payout ?? null,
      daily_payout: null,
      max_card_balance: l.max_card_balance ?? null,
    });

  it('an approved adjustment that would take a card over its max_card_balance fails with the limit, and the held money goes back', async () => {
    const number = await card(10_000);
    const business = await businessBalance(biz.id, 'test', 'ETB');
    const up = await requestAdjustment(testDb(), {
      ...scope(),
      userId: users.operator,
      cardNumber: number,
      direction: 'increase',
      amount: 5_001,
      reasonCode: 'goodwill',
    });
    expect((await setLimits({ max_card_balance: 15_000 })).status).toBe(200);
    try {
      expect(await approveRequest(testDb(), { ...scope(), reference: up.reference, userId: users.finance })).toMatchObject({ status: 'failed' });
      expect((await status(up.reference)).failure_reason).toMatch(/maximum card balance limit of 150\.00 ETB/);
      expect(await apiCard(number)).toMatchObject({ available_amount: 10_000, held_amount: 0 });
      expect(await businessBalance(biz.id, 'test', 'ETB')).toBe(business);
    } finally {
      expect((await setLimits({})).status).toBe(200);
    }
    await expectLedgerClean();
  });

  it('money held for approval still counts against the card’s max_card_balance, so a release can never take it over', async () => {
    const [x, other, to] = [await card(100_000), await card(100_000), await card(0)];
    const reference = await waitingPayout(x, to, 80_000);
    expect(await apiCard(x)).toMatchObject({ available_amount: 20_000, held_amount: 80_000 });
    expect((await setLimits({ max_card_balance: 100_000 })).status).toBe(200);
    try {
      const topUp = await biz.test.post('/api/v1/card/payouts', { card_number: other, destination_card_number: x, amount: 1_000 });
      expect(topUp.status).toBe(400);
      expect(topUp.body.message).toBe('Limit exceeded');
      await rejectRequest(testDb(), { ...scope(), reference, userId: users.owner, asMaker: false });
      expect(await apiCard(x)).toMatchObject({ available_amount: 100_000, held_amount: 0 });
    } finally {
      expect((await setLimits({})).status).toBe(200);
    }
    await expectLedgerClean();
  });

  it('a dashboard payout over the largest allowed is refused at once, holding nothing, rather than failing on approval', async () => {
    const [from, to] = [await card(100_000), await card(0)];
    expect((await setLimits({ max_payout: 60_000 })).status).toBe(200);
    try {
      await expect(
        sendDashboardPayout(testDb(), { ...scope(), userId: users.operator, input: { card_number: from, destination_card_number: to, amount: 70_000 } }),
      ).rejects.toMatchObject({ code: 'limit_exceeded' });
      expect(await apiCard(from)).toMatchObject({ available_amount: 100_000, held_amount: 0 });
    } finally {
      expect((await setLimits({})).status).toBe(200);
    }
  });
});

describe('a card that expires while a request on it awaits approval', () => {
  it('fails the request at expiry: its held money becomes breakage with the rest, and no approver can pay it afterwards', async () => {
    const [from, to] = [await card(90_000), await card(0)];
    const reference = await waitingPayout(from, to, 60_000);
    await testDb().execute(sql`UPDATE cards SET expires_at = now() - interval '1 second' WHERE card_number = ${from}`);
    await expireDueCards(testDb(), failApprovalOfExpiredCard);
    expect(await status(reference)).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/expired/) });
    const { rows } = await testDb().execute<{ expired: boolean; balance: number }>(sql`
      SELECT c.expired_at IS NOT NULL AS expired, a.balance FROM cards c JOIN ledger_accounts a ON a.id = c.account_id WHERE c.card_number = ${from}`);
    expect(rows[0]).toMatchObject({ expired: true });
    expect(Number(rows[0].balance)).toBe(0);
    const approved = await Promise.allSettled([approveRequest(testDb(), { ...scope(), userId: users.finance, reference })]);
    expect(approved[0].status).toBe('rejected');
    expect(await apiCard(to)).toMatchObject({ available_amount: 0 });
    await expectLedgerClean();
  });
});
