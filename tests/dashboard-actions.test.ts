import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ALL_ACTIONS } from '../lib/actions/all-actions';
import { cancelCardAction, disableCardAction, enableCardAction, topUpCardAction } from '../lib/actions/card-actions';
import { runActionAs, type ActionDef } from '../lib/actions/define-action';
import { can } from '../lib/auth/permissions';
import type { DashboardSession } from '../lib/auth/session-types';
import type { Role } from '../lib/auth/users';
import { adminClient, createCard, createTestBusiness, testDb, type TestBusiness } from './helpers';

// runActionAs opens the app's own pool: point it at the tests' database.
process.env.DATABASE_URL = inject('databaseUrl');

const ROLES: Role[] = ['owner', 'operator', 'finance', 'support', 'cashier'];

async function sessionsFor(biz: TestBusiness): Promise<Record<Role, DashboardSession>> {
  const out = {} as Record<Role, DashboardSession>;
  for (const role of ROLES) {
    const email = `${role}-${randomUUID()}@example.com`;
    const res = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'dashboard-pass-123', role });
    expect(res.status).toBe(201);
    const userId = res.body.data.id as number;
    out[role] = {
      userId,
      email,
      businessId: biz.id,
      role,
      mode: 'test',
      timeZone: 'Africa/Addis_Ababa',
      country: 'ET',
      actor: { type: 'user', id: String(userId) },
    };
  }
  return out;
}

describe('every dashboard action refuses roles without its permission', () => {
  it('walks ALL_ACTIONS', async () => {
    const biz = await createTestBusiness('Role walk');
    const sessions = await sessionsFor(biz);
    expect(ALL_ACTIONS.length).toBeGreaterThan(0);
    expect(new Set(ALL_ACTIONS.map((a) => a.name)).size).toBe(ALL_ACTIONS.length);
    let refusals = 0;
    for (const def of ALL_ACTIONS) {
      const signedOut = await runActionAs(def, null, {});
      expect(signedOut.ok, `${def.name} signed out`).toBe(false);
      expect(!signedOut.ok && signedOut.message, def.name).toMatch(/^Unauthorized/);
      for (const role of ROLES.filter((r) => !can(r, def.permission))) {
        const result = await runActionAs(def, sessions[role], {});
        expect(result.ok, `${def.name} as ${role}`).toBe(false);
        expect(!result.ok && result.message, `${def.name} as ${role}`).toMatch(/^Forbidden/);
        refusals++;
      }
    }
    // Finance and support hold no money:move, so at least the top-up is refused to both.
    expect(refusals).toBeGreaterThanOrEqual(2);
  });
});

describe('card actions', () => {
  let a: TestBusiness;
  let b: TestBusiness;
  let aSessions: Record<Role, DashboardSession>;
  let bSessions: Record<Role, DashboardSession>;
  let cardNumber: string;

  const cardState = async (number: string) => {
    const res = await a.test.get(`/api/v1/card/${number}`);
    return { http: res.status, status: res.body.data?.status, balance: res.body.data?.available_amount };
  };

  beforeAll(async () => {
    a = await createTestBusiness('Card owner');
    b = await createTestBusiness('Other business');
    aSessions = await sessionsFor(a);
    bSessions = await sessionsFor(b);
    cardNumber = (await createCard(a.test)).card_number;
    const funded = await adminClient().post(`/api/admin/businesses/${a.id}/balance`, { mode: 'test', currency: 'ETB', amount: 50_000 });
    expect(funded.status).toBeLessThan(300);
  });

  it('a user of another business, even its owner, cannot touch the card', async () => {
    const before = await cardState(cardNumber);
    const owner = bSessions.owner;
    for (const def of [disableCardAction, enableCardAction, cancelCardAction] as ActionDef<any, unknown>[]) {
      const result = await runActionAs(def, owner, { card_number: cardNumber });
      expect(result.ok, def.name).toBe(false);
      expect(!result.ok && result.message, def.name).toMatch(/^Gift card not found/);
    }
    for (const source of ['business', 'link'] as const) {
      const result = await runActionAs(topUpCardAction, owner, { card_number: cardNumber, source, amount: '10', submission_id: randomUUID() });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.message).toMatch(/^Gift card not found/);
    }
    expect(await cardState(cardNumber)).toEqual(before);
    const moved = await testDb().execute<{ n: number }>(sql`
      SELECT (SELECT count(*) FROM payouts WHERE business_id = ${b.id}) + (SELECT count(*) FROM payments WHERE business_id = ${b.id}) AS n`);
    expect(Number(moved.rows[0].n)).toBe(0);
  });

  it('support disables and enables, but cannot cancel or move money', async () => {
    const support = aSessions.support;
    expect(await runActionAs(disableCardAction, support, { card_number: cardNumber })).toEqual({ ok: true, data: { status: 3 } });
    expect((await cardState(cardNumber)).status).toBe(3);
    expect(await runActionAs(enableCardAction, support, { card_number: cardNumber })).toEqual({ ok: true, data: { status: 1 } });
    const cancel = await runActionAs(cancelCardAction, support, { card_number: cardNumber });
    expect(!cancel.ok && cancel.message).toMatch(/^Forbidden/);
    const topUp = await runActionAs(topUpCardAction, support, { card_number: cardNumber, source: 'business', amount: '10', submission_id: randomUUID() });
    expect(!topUp.ok && topUp.message).toMatch(/^Forbidden/);
    expect(await cardState(cardNumber)).toEqual({ http: 200, status: 1, balance: 0 });
  });

  it('a double-submitted top-up moves the money once', async () => {
    const operator = aSessions.operator;
    const input = { card_number: cardNumber, source: 'business', amount: '12.34', submission_id: randomUUID() };
    const [first, second] = await Promise.all([runActionAs(topUpCardAction, operator, input), runActionAs(topUpCardAction, operator, input)]);
    const oks = [first, second].filter((r) => r.ok);
    expect(oks.length).toBeGreaterThanOrEqual(1);
    // The loser of a race is told the request is still running; it never starts a second transfer.
    for (const r of [first, second]) if (!r.ok) expect(r.message).toMatch(/^Request in progress/);
    const replay = await runActionAs(topUpCardAction, operator, input);
    expect(replay).toEqual(oks[0]);
    const transfers = await testDb().execute<{ reference: string; amount: number; actor_type: string; actor_id: string }>(
      sql`SELECT reference, amount, actor_type, actor_id FROM payouts WHERE business_id = ${a.id} AND is_ledger_topup`,
    );
    expect(transfers.rows).toEqual([{ reference: (oks[0] as any).data.reference, amount: 1234, actor_type: 'user', actor_id: String(operator.userId) }]);
    const reused = await runActionAs(topUpCardAction, operator, { ...input, amount: '99' });
    expect(!reused.ok && reused.message).toMatch(/^Idempotency key reused/);

    const settled = await a.test.post(`/api/v1/test-helpers/payouts/${transfers.rows[0].reference}/settle`, { status: 'success' });
    expect(settled.status).toBe(200);
    expect((await cardState(cardNumber)).balance).toBe(1234);
  });

  it('a payment link top-up answers its checkout URL; amounts are parsed without floats', async () => {
    const result = await runActionAs(topUpCardAction, aSessions.owner, {
      card_number: cardNumber,
      source: 'link',
      amount: '0.29',
      submission_id: randomUUID(),
    });
    expect(!result.ok && result.fieldErrors?.amount).toMatch(/at least 100/);
    const link = await runActionAs(topUpCardAction, aSessions.owner, { card_number: cardNumber, source: 'link', amount: '1.1', submission_id: randomUUID() });
    expect(link.ok).toBe(true);
    const data = (link as any).data;
    expect(data).toMatchObject({ source: 'link', amount: 110 });
    expect(data.checkoutUrl).toMatch(new RegExp(`/checkout/${data.linkReference}$`));
  });

  it('cancelling moves the remaining balance to the business account, once', async () => {
    const card = (await createCard(a.test)).card_number;
    const t = await runActionAs(topUpCardAction, aSessions.owner, { card_number: card, source: 'business', amount: '5', submission_id: randomUUID() });
    expect(t.ok).toBe(true);
    await a.test.post(`/api/v1/test-helpers/payouts/${(t as any).data.reference}/settle`, { status: 'success' });
    const businessBefore = await testDb().execute<{ balance: number }>(
      sql`SELECT balance FROM ledger_accounts WHERE name = ${`business:${a.id}`} AND mode = 'test' AND currency = 'ETB'`,
    );
    expect(await runActionAs(cancelCardAction, aSessions.operator, { card_number: card })).toEqual({ ok: true, data: { movedToBusiness: 500 } });
    const again = await runActionAs(cancelCardAction, aSessions.operator, { card_number: card });
    expect(!again.ok && again.message).toMatch(/^Gift card not found/);
    const businessAfter = await testDb().execute<{ balance: number }>(
      sql`SELECT balance FROM ledger_accounts WHERE name = ${`business:${a.id}`} AND mode = 'test' AND currency = 'ETB'`,
    );
    expect(Number(businessAfter.rows[0].balance) - Number(businessBefore.rows[0].balance)).toBe(500);
  });
});
