import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { extendCardExpiry, setExpiryPolicy } from '../lib/actions/expiry-actions';
import { runActionAs } from '../lib/actions/define-action';
import type { DashboardSession } from '../lib/auth/session-types';
import type { Role } from '../lib/auth/users';
import { adminClient, createCard, createTestBusiness, testDb, type TestBusiness } from './helpers';

// runActionAs opens the app's own pool: point it at the tests' database.
process.env.DATABASE_URL = inject('databaseUrl');

async function sessionAs(biz: TestBusiness, role: Role): Promise<DashboardSession> {
  const email = `${role}-${randomUUID()}@example.com`;
  const res = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'dashboard-pass-123', role });
  expect(res.status).toBe(201);
  const userId = res.body.data.id as number;
  return { userId, email, businessId: biz.id, role, mode: 'test', timeZone: 'Africa/Addis_Ababa', country: 'ET', actor: { type: 'user', id: String(userId) } };
}

describe('expiry actions', () => {
  let biz: TestBusiness;
  let other: TestBusiness;
  const sessions = {} as Record<Role, DashboardSession>;

  beforeAll(async () => {
    biz = await createTestBusiness('Expiry actions');
    other = await createTestBusiness('Expiry actions, another business');
    for (const role of ['owner', 'operator', 'finance', 'support'] as const) sessions[role] = await sessionAs(biz, role);
  });

  it('only the owner sets the policy; a form without months is refused on its field', async () => {
    for (const role of ['operator', 'finance', 'support'] as const) {
      const refused = await runActionAs(setExpiryPolicy, sessions[role], { policy: 'after_issue', months: '6' });
      expect(refused.ok === false && refused.message, role).toMatch(/^Forbidden/);
    }
    const missing = await runActionAs(setExpiryPolicy, sessions.owner, { policy: 'after_last_load', months: '' });
    expect(missing.ok === false && missing.fieldErrors).toMatchObject({ months: expect.any(String) });
    const saved = await runActionAs(setExpiryPolicy, sessions.owner, { policy: 'after_issue', months: '6' });
    expect(saved).toEqual({ ok: true, data: { kind: 'after_issue', months: 6 } });
    const audit = await testDb().execute(sql`SELECT 1 FROM audit_log WHERE business_id = ${biz.id} AND action = 'business.expiry_policy_changed'`);
    expect(audit.rows).toHaveLength(1);
  });

  it('support and finance extend a card of their business; the operator may not, another business cannot reach it', async () => {
    const card = (await createCard(biz.test)).card_number as string;
    const otherCard = (await createCard(other.test)).card_number as string;
    const input = (n: string, day: string) => ({ card_number: n, expires_on: day, reason: 'customer asked nicely' });
    const refused = await runActionAs(extendCardExpiry, sessions.operator, input(card, '2035-01-01'));
    expect(refused.ok === false && refused.message).toMatch(/^Forbidden/);
    expect(await runActionAs(extendCardExpiry, sessions.support, input(card, '2035-01-01'))).toEqual({
      ok: true,
      data: { expiresAt: '2035-01-01T20:59:59.999Z' },
    });
    expect(await runActionAs(extendCardExpiry, sessions.finance, input(card, '2035-02-01'))).toEqual({
      ok: true,
      data: { expiresAt: '2035-02-01T20:59:59.999Z' },
    });
    const foreign = await runActionAs(extendCardExpiry, sessions.support, input(otherCard, '2035-01-01'));
    expect(foreign.ok === false && foreign.code).toBe('card_not_found');
  });
});
