import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import * as developer from '../lib/actions/developer-actions';
import * as team from '../lib/actions/team-actions';
import { ALL_ACTIONS } from '../lib/actions/all-actions';
import { runActionAs, type ActionDef } from '../lib/actions/define-action';
import type { DashboardSession } from '../lib/auth/session-types';
import type { Role } from '../lib/auth/users';
import { listAuditLog } from '../lib/dashboard/list-audit-log';
import { listDeliveryLog } from '../lib/dashboard/list-delivery-log';
import { apiKeys, invitations, passwordResets, users } from '../lib/db/schema';
import { acceptInvitationWithToken } from '../lib/actions/link-actions';
import { adminClient, apiClient, createTestBusiness, testDb, type TestBusiness } from './helpers';
import { startReceiver } from './api/webhooks-receiver';

process.env.DATABASE_URL = inject('databaseUrl');

const ROLES: Role[] = ['owner', 'operator', 'finance', 'support'];
const MINE = [...Object.values(developer), ...Object.values(team)] as ActionDef<z.ZodType, unknown>[];

interface Seeded {
  biz: TestBusiness;
  sessions: Record<Role, DashboardSession>;
}

async function seed(): Promise<Seeded> {
  const biz = await createTestBusiness('Developers and team');
  const sessions = {} as Record<Role, DashboardSession>;
  for (const role of ROLES) {
    const email = `${role}-${biz.id}-${Math.random().toString(36).slice(2)}@example.com`;
    const res = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'a-long-password', role });
    expect(res.status).toBe(201);
    const userId = res.body.data.id as number;
    sessions[role] = {
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
  return { biz, sessions };
}

/** What the removed "add user with a password" did, now through an invitation the new user accepts. */
async function addByInvitation(owner: DashboardSession, email: string, password: string, role: Role) {
  const invited = await runActionAs(team.inviteUser, owner, { email, role });
  if (!invited.ok) return invited;
  const accepted = await acceptInvitationWithToken(testDb(), { token: invited.data.link.split('/').pop(), password });
  if (!accepted.ok) return accepted;
  const [user] = await testDb().select().from(users).where(eq(users.email, email));
  return { ok: true as const, data: { id: user.id, email } };
}

let a: Seeded;
let b: Seeded;
beforeAll(async () => {
  [a, b] = await Promise.all([seed(), seed()]);
});

describe('developers and team actions: roles', () => {
  it('are all registered in ALL_ACTIONS and need an owner-only permission', () => {
    for (const def of MINE) {
      expect(ALL_ACTIONS).toContain(def);
      expect(['developers', 'team']).toContain(def.permission);
    }
    expect(MINE.map((d) => d.name).sort()).toEqual([
      'createApiKey',
      'createResetLink',
      'inviteUser',
      'removeUser',
      'renameApiKey',
      'replayEvent',
      'replayFailedWebhooks',
      'revealWebhookSecret',
      'revokeApiKey',
      'revokeInvitation',
      'rotateWebhookSecret',
      'sendTestWebhook',
      'setTwoFactorRequired',
      'setWebhookUrl',
      'updateUserRole',
    ]);
  });

  it('refuse operator, finance and support with Forbidden, changing nothing', async () => {
    const [key] = await testDb().select().from(apiKeys).where(eq(apiKeys.businessId, a.biz.id));
    const inputs: Record<string, unknown> = {
      createApiKey: { name: 'Intruder' },
      renameApiKey: { key_id: key.id, name: 'Intruder' },
      revokeApiKey: { key_id: key.id },
      sendTestWebhook: {},
      setWebhookUrl: { url: 'http://127.0.0.1:9/hooks' },
      revealWebhookSecret: {},
      rotateWebhookSecret: {},
      replayEvent: { event_id: 'evt_x' },
      replayFailedWebhooks: { from: '2020-01-01T00:00:00Z', to: '2030-01-01T00:00:00Z' },
      inviteUser: { email: `intruder-${a.biz.id}@example.com`, role: 'owner' },
      revokeInvitation: { invitation_id: 1 },
      createResetLink: { user_id: a.sessions.owner.userId },
      setTwoFactorRequired: { required: true },
      updateUserRole: { user_id: a.sessions.owner.userId, role: 'support' },
      removeUser: { user_id: a.sessions.owner.userId },
    };
    for (const role of ['operator', 'finance', 'support'] as const) {
      for (const def of MINE) {
        const res = await runActionAs(def, a.sessions[role], inputs[def.name]);
        expect(res, `${role} ${def.name}`).toEqual({ ok: false, code: 'forbidden', message: 'Forbidden: Your role does not allow this.' });
      }
    }
    const keysAfter = await testDb().select().from(apiKeys).where(eq(apiKeys.businessId, a.biz.id));
    expect(keysAfter.every((k) => k.active && !k.revokedAt)).toBe(true);
    expect(keysAfter).toHaveLength(2);
    const owner = await testDb().select().from(users).where(eq(users.id, a.sessions.owner.userId));
    expect(owner[0].role).toBe('owner');
    expect(
      await testDb()
        .select()
        .from(invitations)
        .where(eq(invitations.email, `intruder-${a.biz.id}@example.com`)),
    ).toHaveLength(0);
    expect(await testDb().select().from(passwordResets).where(eq(passwordResets.userId, a.sessions.owner.userId))).toHaveLength(0);
    expect((await runActionAs(developer.createApiKey, null, {})).ok).toBe(false);
  });

  it("refuse an owner of another business on this business's keys, users and events", async () => {
    const [key] = await testDb().select().from(apiKeys).where(eq(apiKeys.businessId, a.biz.id));
    const revoke = await runActionAs(developer.revokeApiKey, b.sessions.owner, { key_id: key.id });
    expect(revoke).toEqual({ ok: false, code: 'not_found', message: 'Not found: No API key has this id.' });
    const role = await runActionAs(team.updateUserRole, b.sessions.owner, { user_id: a.sessions.finance.userId, role: 'owner' });
    expect(role).toEqual({ ok: false, code: 'user_not_found', message: 'User not found: No user of this business has this id.' });
    const remove = await runActionAs(team.removeUser, b.sessions.owner, { user_id: a.sessions.support.userId });
    expect(remove.ok).toBe(false);
    const rows = await testDb().select().from(users).where(eq(users.businessId, a.biz.id));
    expect(rows.map((u) => u.role).sort()).toEqual(['finance', 'operator', 'owner', 'support']);
    expect((await testDb().select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0].active).toBe(true);

    // An event of business A, replayed by B's owner: not found, and its delivery stays as it was.
    const receiver = await startReceiver();
    try {
      expect((await runActionAs(developer.setWebhookUrl, a.sessions.owner, { url: `${receiver.url}/a` })).ok).toBe(true);
      const card = await a.biz.test.post('/api/v1/card', { phone_number: `+25191${String(Date.now()).slice(-7)}`, currency: 'ETB', first_name: 'T' });
      expect(card.status).toBe(201);
      await adminClient().post(`/api/admin/businesses/${a.biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 5_000 });
      const t = await a.biz.test.post('/api/v1/transfers', { amount: 1_000, bank_slug: 'link', account_number: card.body.data.card_number, account_name: 'T' });
      await a.biz.test.post(`/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, { status: 'success' });
      await receiver.waitFor((r) => r.some((x) => x.path === '/a'));
      const eventId = String(receiver.requests.find((x) => x.path === '/a')!.headers['webhook-id']);
      const foreign = await runActionAs(developer.replayEvent, b.sessions.owner, { event_id: eventId });
      expect(foreign).toEqual({ ok: false, code: 'not_found', message: 'Not found: No event has this id.' });
      // A delivery still in flight is never requeued: wait until the log says delivered.
      await expect
        .poll(async () => (await listDeliveryLog(testDb(), { businessId: a.biz.id, mode: 'test', page: 1, limit: 5 })).items.find((d) => d.eventId === eventId))
        // The receiver is on loopback: the log shows that it worked, not its status code.
        .toMatchObject({ state: 'delivered', url: `${receiver.url}/a`, attempts: [{ statusCode: null, error: null }] });
      const own = await runActionAs(developer.replayEvent, a.sessions.owner, { event_id: eventId });
      expect(own).toMatchObject({ ok: true, data: { event_id: eventId } });
      if (own.ok) expect(own.data.deliveries).toBeGreaterThanOrEqual(1);
      await receiver.waitFor((r) => r.filter((x) => x.path === '/a').length >= 2);
      const bulk = await runActionAs(developer.replayFailedWebhooks, b.sessions.owner, { from: '2020-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' });
      expect(bulk).toMatchObject({ ok: true, data: { deliveries: 0 } });
    } finally {
      await receiver.close();
    }
  });
});

describe('developers and team actions: what they do', () => {
  it('a created key works once shown, and answers 403 once revoked; both are audited by prefix', async () => {
    const { biz, sessions } = await seed();
    const created = await runActionAs(developer.createApiKey, sessions.owner, { name: 'Checkout server' });
    if (!created.ok) throw new Error(created.message);
    expect(created.data.key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    const client = apiClient(created.data.key);
    expect((await client.get('/api/v1/card')).status).toBe(200);
    const revoked = await runActionAs(developer.revokeApiKey, sessions.owner, { key_id: created.data.id });
    expect(revoked.ok).toBe(true);
    const after = await client.get('/api/v1/card');
    expect(after.status).toBe(403);
    expect(after.body.message).toBe('Forbidden');
    expect(await runActionAs(developer.revokeApiKey, sessions.owner, { key_id: created.data.id })).toEqual({
      ok: false,
      code: 'already_disabled',
      message: 'Already disabled: This API key is already revoked.',
    });
    // The biz's original key still works.
    expect((await biz.test.get('/api/v1/card')).status).toBe(200);
    const log = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 10, action: 'api_key' });
    expect(log.items.map((i) => [i.action, i.target, i.actorLabel])).toEqual([
      ['api_key.revoked', created.data.prefix, sessions.owner.email],
      ['api_key.created', created.data.prefix, sessions.owner.email],
    ]);
    expect(JSON.stringify(log)).not.toContain(created.data.key);
  });

  it('a webhook URL obeys the SSRF rules; the secret is revealed on demand and rotated', async () => {
    const { sessions } = await seed();
    const live = { ...sessions.owner, mode: 'live' as const };
    const refused = await runActionAs(developer.setWebhookUrl, live, { url: 'http://127.0.0.1:8080/hooks' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.fieldErrors?.url).toBeTruthy();
    expect(await runActionAs(developer.revealWebhookSecret, sessions.owner, {})).toEqual({
      ok: false,
      code: 'not_found',
      message: 'Not found: No webhook URL is registered for this mode.',
    });
    expect((await runActionAs(developer.setWebhookUrl, sessions.owner, { url: 'http://127.0.0.1:8080/hooks' })).ok).toBe(true);
    const first = await runActionAs(developer.revealWebhookSecret, sessions.owner, {});
    const rotated = await runActionAs(developer.rotateWebhookSecret, sessions.owner, {});
    const second = await runActionAs(developer.revealWebhookSecret, sessions.owner, {});
    if (!first.ok || !rotated.ok || !second.ok) throw new Error('secret actions failed');
    expect(first.data.secret).toMatch(/^whsec_/);
    expect(second.data.secret).toBe(rotated.data.secret);
    expect(second.data.secret).not.toBe(first.data.secret);
  });

  it('team: invite, change role, remove; never the last owner, never yourself; the audit log names the owner', async () => {
    const { biz, sessions } = await seed();
    const email = `new-${biz.id}@example.com`;
    const added = await addByInvitation(sessions.owner, email, 'short', 'operator');
    expect(added).toMatchObject({ ok: false, fieldErrors: { password: 'Use at least 10 characters for the password.' } });
    const ok = await addByInvitation(sessions.owner, email, 'long-enough-pass', 'operator');
    if (!ok.ok) throw new Error(ok.message);
    expect(await addByInvitation(sessions.owner, email, 'long-enough-pass', 'operator')).toMatchObject({
      ok: false,
      fieldErrors: { email: expect.stringContaining('already has an account') },
    });

    expect(await runActionAs(team.updateUserRole, sessions.owner, { user_id: sessions.owner.userId, role: 'support' })).toMatchObject({
      ok: false,
      fieldErrors: { role: expect.stringContaining('own role') },
    });
    expect(await runActionAs(team.removeUser, sessions.owner, { user_id: sessions.owner.userId })).toEqual({
      ok: false,
      code: 'forbidden',
      message: 'Forbidden: You cannot remove yourself.',
    });
    // A second owner may not demote or remove the only other owner once it is the last one.
    expect((await runActionAs(team.updateUserRole, sessions.owner, { user_id: ok.data.id, role: 'owner' })).ok).toBe(true);
    const second = { ...sessions.owner, userId: ok.data.id, email, actor: { type: 'user' as const, id: String(ok.data.id) } };
    expect((await runActionAs(team.updateUserRole, second, { user_id: sessions.owner.userId, role: 'finance' })).ok).toBe(true);
    expect(await runActionAs(team.removeUser, second, { user_id: sessions.finance.userId })).toMatchObject({ ok: true });
    // Now `second` is the last owner: the demoted first owner cannot act, and nobody else can demote it.
    expect((await runActionAs(team.updateUserRole, { ...sessions.owner, role: 'finance' }, { user_id: ok.data.id, role: 'support' })).ok).toBe(false);
    const rows = await testDb().select().from(users).where(eq(users.businessId, biz.id));
    expect(rows.filter((u) => u.role === 'owner').map((u) => u.email)).toEqual([email]);
    expect(rows.some((u) => u.id === sessions.finance.userId)).toBe(false);

    const log = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 10, action: 'user' });
    expect(log.items.map((i) => i.action)).toEqual(['user.removed', 'user.role_changed', 'user.role_changed', 'user.joined', 'user.invited', 'user.invited']);
    expect(log.items[0].actorLabel).toBe(email);
    expect(log.items[3].actorLabel).toBe(email);
    expect(log.items[4].actorLabel).toBe(sessions.owner.email);
  });

  it('two owners demoting each other at once leave one owner', async () => {
    const { biz, sessions } = await seed();
    const other = await addByInvitation(sessions.owner, `o2-${biz.id}@example.com`, 'long-enough-pass', 'owner');
    if (!other.ok) throw new Error(other.message);
    const second = { ...sessions.owner, userId: other.data.id, actor: { type: 'user' as const, id: String(other.data.id) } };
    const results = await Promise.all([
      runActionAs(team.updateUserRole, sessions.owner, { user_id: other.data.id, role: 'support' }),
      runActionAs(team.updateUserRole, second, { user_id: sessions.owner.userId, role: 'support' }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const rows = await testDb().select().from(users).where(eq(users.businessId, biz.id));
    expect(rows.filter((u) => u.role === 'owner')).toHaveLength(1);
  });

  it('the audit log shows API money movements by key prefix and back office deposits, newest first, paged and filtered', async () => {
    const { biz, sessions } = await seed();
    expect((await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 3_000 })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const res = await biz.test.post('/api/v1/card', { phone_number: `+25192${String(Date.now() + i).slice(-7)}`, currency: 'ETB', first_name: 'T' });
      expect(res.status).toBe(201);
    }
    const all = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 2 });
    expect(all.newer).toBeNull();
    expect(all.items.map((i) => i.action)).toEqual(['card.created', 'card.created']);
    expect(all.items[0].actorLabel).toMatch(/^API key sk_test_\w{4}…$/);
    const page2 = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 2, before: all.older! });
    expect(page2.items.map((i) => i.action)).toEqual(['card.created', 'business.credited']);
    expect(page2.older).toBeNull();
    expect(page2.items[1].actorLabel).toBe('Provider back office');
    expect(new Set([...all.items, ...page2.items].map((i) => i.id)).size).toBe(4);
    const back = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 2, after: page2.newer! });
    expect(back.items.map((i) => i.id)).toEqual(all.items.map((i) => i.id));
    expect(back.newer).toBeNull();
    const admins = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 10, actorType: 'admin' });
    expect(admins.items.map((i) => i.action)).toEqual(['business.credited']);
    const live = await listAuditLog(testDb(), { businessId: biz.id, mode: 'live', limit: 10 });
    expect(live.items).toEqual([]);
    const other = await listAuditLog(testDb(), { businessId: a.biz.id, mode: 'test', limit: 50, actorType: 'user' });
    expect(other.items.every((i) => i.actorLabel !== sessions.owner.email)).toBe(true);
  });
});

describe('ids beyond PostgreSQL integers', () => {
  it('are refused as bad input on their field, not answered as an internal error', async () => {
    const owner = a.sessions.owner;
    const huge = 2_147_483_648;
    const calls: [ActionDef<z.ZodType, unknown>, Record<string, unknown>, string][] = [
      [team.createResetLink, { user_id: huge }, 'user_id'],
      [team.updateUserRole, { user_id: huge, role: 'support' }, 'user_id'],
      [team.removeUser, { user_id: huge }, 'user_id'],
      [team.revokeInvitation, { invitation_id: huge }, 'invitation_id'],
      [developer.revokeApiKey, { key_id: huge }, 'key_id'],
      [developer.renameApiKey, { key_id: huge, name: 'Too far' }, 'key_id'],
    ];
    for (const [action, input, field] of calls) {
      const r = await runActionAs(action, owner, input);
      expect(r, action.name).toMatchObject({ ok: false, code: 'validation_error', fieldErrors: { [field]: expect.any(String) } });
    }
    // The largest integer is still an id, just an unknown one.
    expect(await runActionAs(team.removeUser, owner, { user_id: 2_147_483_647 })).toMatchObject({ ok: false, code: 'user_not_found' });
  });
});
