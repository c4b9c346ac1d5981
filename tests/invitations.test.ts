import { eq, sql } from 'drizzle-orm';
import bcrypt from 'bcryptjs';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { acceptInvitationWithToken, resetPasswordWithToken } from '../lib/actions/link-actions';
import { changePassword } from '../lib/actions/account-actions';
import { runActionAs } from '../lib/actions/define-action';
import * as team from '../lib/actions/team-actions';
import { findInvitation, listPendingInvitations } from '../lib/auth/invitations';
import { findPasswordReset } from '../lib/auth/password-resets';
import type { DashboardSession } from '../lib/auth/session-types';
import { authorizeSignIn } from '../lib/auth/sign-in';
import { SignInLimits } from '../lib/auth/sign-in-limits';
import { listAuditLog } from '../lib/dashboard/list-audit-log';
import { auditLog, invitations, passwordResets, users } from '../lib/db/schema';
import { sha256Hex } from '../lib/ids';
import { auditSentence } from '../components/audit/audit-sentence';
import { setUserLocationAction } from '../lib/actions/location-actions';
import { createTestBusiness, testDb, type TestBusiness } from './helpers';
import { startFakeSmtp } from './fake-smtp';
import { getWithSession, PASSWORD, signInOverHttp, tokenOf, userOf } from './owners-auth-helpers';

process.env.DATABASE_URL = inject('databaseUrl');

const signIn = (email: string, password: string) => authorizeSignIn(testDb(), new SignInLimits(1000), { email, password, address: '192.0.2.1' });

async function invite(owner: DashboardSession, email: string, role: 'owner' | 'operator' | 'finance' | 'support' = 'operator') {
  const res = await runActionAs(team.inviteUser, owner, { email, role });
  if (!res.ok) throw new Error(res.message);
  return res.data;
}

let a: TestBusiness;
let b: TestBusiness;
let ownerA: DashboardSession;
let ownerB: DashboardSession;
beforeAll(async () => {
  [a, b] = await Promise.all([createTestBusiness('Invitations A'), createTestBusiness('Invitations B')]);
  [ownerA, ownerB] = await Promise.all([userOf(a.id, 'owner'), userOf(b.id, 'owner')]);
});

describe('invitations', () => {
  it('make a single-use 48-hour link; only its hash is kept; the invitee chooses a password and signs in', async () => {
    const email = `Invitee-${a.id}@Example.com`;
    const started = Date.now();
    const created = await invite(ownerA, email, 'finance');
    expect(created.link).toMatch(/^https?:\/\/[^/]+\/invite\/[0-9A-Za-z]{43}$/);
    expect(created.mail).toBe('off');
    expect(Date.parse(created.expiresAt) - started).toBeGreaterThanOrEqual(48 * 3600_000 - 5_000);
    expect(Date.parse(created.expiresAt) - started).toBeLessThanOrEqual(48 * 3600_000 + 5_000);
    const token = tokenOf(created.link);

    const [row] = await testDb()
      .select()
      .from(invitations)
      .where(eq(invitations.tokenHash, sha256Hex(token)));
    expect(row).toMatchObject({ businessId: a.id, email: email.toLowerCase(), role: 'finance', invitedBy: ownerA.userId, usedAt: null });
    const leaked = await testDb().execute(sql`SELECT 1 FROM invitations WHERE row_to_json(invitations)::text LIKE ${`%${token}%`}`);
    expect(leaked.rows).toHaveLength(0);

    expect(await findInvitation(testDb(), token)).toMatchObject({ state: 'valid', businessName: 'Invitations A', role: 'finance', email: email.toLowerCase() });
    expect((await listPendingInvitations(testDb(), a.id)).map((i) => i.email)).toContain(email.toLowerCase());

    expect(await acceptInvitationWithToken(testDb(), { token, password: 'short' })).toMatchObject({
      ok: false,
      fieldErrors: { password: 'Use at least 10 characters for the password.' },
    });
    expect(await acceptInvitationWithToken(testDb(), { token, password: 'my-own-password-1' })).toEqual({ ok: true, data: { email: email.toLowerCase() } });
    expect(await signIn(email, 'my-own-password-1')).toMatchObject({ email: email.toLowerCase(), role: 'finance', businessId: a.id });

    // Used: the same link works no more, and the invitation is no longer pending.
    expect(await acceptInvitationWithToken(testDb(), { token, password: 'another-password-2' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await findInvitation(testDb(), token)).toEqual({ state: 'invalid' });
    expect((await listPendingInvitations(testDb(), a.id)).map((i) => i.email)).not.toContain(email.toLowerCase());
    expect(await signIn(email, 'another-password-2')).toBeNull();
  });

  it('do not work once expired, revoked or replaced by a newer one', async () => {
    const expired = tokenOf((await invite(ownerA, `late-${a.id}@example.com`)).link);
    await testDb()
      .update(invitations)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(invitations.tokenHash, sha256Hex(expired)));
    expect(await findInvitation(testDb(), expired)).toEqual({ state: 'invalid' });
    expect(await acceptInvitationWithToken(testDb(), { token: expired, password: 'my-own-password-1' })).toMatchObject({ ok: false, code: 'not_found' });

    const revokedEmail = `revoked-${a.id}@example.com`;
    const revoked = tokenOf((await invite(ownerA, revokedEmail)).link);
    const pending = (await listPendingInvitations(testDb(), a.id)).find((i) => i.email === revokedEmail)!;
    expect(await runActionAs(team.revokeInvitation, ownerA, { invitation_id: pending.id })).toEqual({ ok: true, data: { email: revokedEmail } });
    expect(await acceptInvitationWithToken(testDb(), { token: revoked, password: 'my-own-password-1' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await runActionAs(team.revokeInvitation, ownerA, { invitation_id: pending.id })).toMatchObject({ ok: false, code: 'not_found' });

    const twiceEmail = `twice-${a.id}@example.com`;
    const first = tokenOf((await invite(ownerA, twiceEmail)).link);
    const second = tokenOf((await invite(ownerA, twiceEmail, 'support')).link);
    expect(await findInvitation(testDb(), first)).toEqual({ state: 'invalid' });
    expect(await findInvitation(testDb(), second)).toMatchObject({ state: 'valid', role: 'support' });
    expect((await listPendingInvitations(testDb(), a.id)).filter((i) => i.email === twiceEmail)).toHaveLength(1);

    expect(await findInvitation(testDb(), 'not-a-token')).toEqual({ state: 'invalid' });
    expect(await acceptInvitationWithToken(testDb(), { token: 'A'.repeat(43), password: 'my-own-password-1' })).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('refuse an email that already has an account, in this business or another', async () => {
    for (const email of [ownerA.email, ownerB.email, ownerB.email.toUpperCase()]) {
      expect(await runActionAs(team.inviteUser, ownerA, { email, role: 'operator' })).toMatchObject({
        ok: false,
        code: 'validation_error',
        fieldErrors: { email: expect.stringContaining('already has an account') },
      });
    }
    // Invited by two businesses: the first to be accepted wins, the other link then says so.
    const email = `both-${a.id}@example.com`;
    const fromA = tokenOf((await invite(ownerA, email)).link);
    const fromB = tokenOf((await invite(ownerB, email)).link);
    expect((await acceptInvitationWithToken(testDb(), { token: fromB, password: 'my-own-password-1' })).ok).toBe(true);
    expect(await acceptInvitationWithToken(testDb(), { token: fromA, password: 'my-own-password-1' })).toMatchObject({
      ok: false,
      fieldErrors: { email: expect.stringContaining('already has an account') },
    });
    const [joined] = await testDb().select().from(users).where(eq(users.email, email));
    expect(joined.businessId).toBe(b.id);
  });

  it("never reach another business's invitations, users or reset links", async () => {
    const email = `private-${a.id}@example.com`;
    await invite(ownerA, email);
    const pending = (await listPendingInvitations(testDb(), a.id)).find((i) => i.email === email)!;
    expect((await listPendingInvitations(testDb(), b.id)).map((i) => i.email)).not.toContain(email);
    expect(await runActionAs(team.revokeInvitation, ownerB, { invitation_id: pending.id })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await findInvitation(testDb(), tokenOf((await invite(ownerA, email)).link))).toMatchObject({ state: 'valid' });

    const operatorA = await userOf(a.id, 'operator');
    expect(await runActionAs(team.createResetLink, ownerB, { user_id: operatorA.userId })).toEqual({
      ok: false,
      code: 'user_not_found',
      message: 'User not found: No user of this business has this id.',
    });
    expect(await testDb().select().from(passwordResets).where(eq(passwordResets.userId, operatorA.userId))).toHaveLength(0);
    for (const role of ['operator', 'finance', 'support'] as const) {
      const other = await userOf(a.id, role);
      expect((await runActionAs(team.inviteUser, other, { email: `x-${role}-${a.id}@example.com`, role: 'owner' })).ok).toBe(false);
      expect((await runActionAs(team.createResetLink, other, { user_id: operatorA.userId })).ok).toBe(false);
    }
  });
});

describe('mail', () => {
  it('sends the link through SMTP_URL when it is set, and still gives the link when sending fails', async () => {
    const smtp = await startFakeSmtp();
    try {
      process.env.SMTP_URL = smtp.url;
      const email = `mailed-${a.id}@example.com`;
      const created = await invite(ownerA, email, 'support');
      expect(created.mail).toBe('sent');
      expect(smtp.messages).toHaveLength(1);
      const [message] = smtp.messages;
      expect(message).toMatch(new RegExp(`^To: ${email}`, 'mi'));
      expect(message).toContain('Invitations A');
      // Quoted-printable may fold a long line: compare without soft line breaks.
      expect(message.replace(/=\r\n/g, '')).toContain(created.link);

      const operator = await userOf(a.id, 'operator');
      const reset = await runActionAs(team.createResetLink, ownerA, { user_id: operator.userId });
      if (!reset.ok) throw new Error(reset.message);
      expect(reset.data.mail).toBe('sent');
      expect(smtp.messages[1].replace(/=\r\n/g, '')).toContain(reset.data.link);

      process.env.SMTP_URL = 'smtp://127.0.0.1:1';
      const failed = await invite(ownerA, `unsent-${a.id}@example.com`);
      expect(failed.mail).toBe('failed');
      expect(await findInvitation(testDb(), tokenOf(failed.link))).toMatchObject({ state: 'valid' });
    } finally {
      delete process.env.SMTP_URL;
      await smtp.close();
    }
  });
});

describe('password reset links', () => {
  it('work once, for 24 hours; a newer link replaces an older one', async () => {
    const teammate = await userOf(a.id, 'support');
    const made = await runActionAs(team.createResetLink, ownerA, { user_id: teammate.userId });
    if (!made.ok) throw new Error(made.message);
    expect(made.data.link).toMatch(/\/reset\/[0-9A-Za-z]{43}$/);
    expect(Date.parse(made.data.expiresAt) - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const token = tokenOf(made.data.link);
    expect(await findPasswordReset(testDb(), token)).toEqual({ state: 'valid', email: teammate.email, businessName: 'Invitations A' });

    expect(await resetPasswordWithToken(testDb(), { token, password: 'a-new-password-9' })).toEqual({ ok: true, data: { email: teammate.email } });
    expect(await signIn(teammate.email, 'a-new-password-9')).toMatchObject({ id: teammate.userId });
    expect(await signIn(teammate.email, PASSWORD)).toBeNull();
    expect(await resetPasswordWithToken(testDb(), { token, password: 'a-third-password' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await findPasswordReset(testDb(), token)).toEqual({ state: 'invalid' });

    const older = await runActionAs(team.createResetLink, ownerA, { user_id: teammate.userId });
    const newer = await runActionAs(team.createResetLink, ownerA, { user_id: teammate.userId });
    if (!older.ok || !newer.ok) throw new Error('reset links not made');
    expect(await resetPasswordWithToken(testDb(), { token: tokenOf(older.data.link), password: 'a-third-password' })).toMatchObject({ ok: false });
    await testDb()
      .update(passwordResets)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResets.tokenHash, sha256Hex(tokenOf(newer.data.link))));
    expect(await resetPasswordWithToken(testDb(), { token: tokenOf(newer.data.link), password: 'a-third-password' })).toMatchObject({ ok: false });
    expect(await signIn(teammate.email, 'a-new-password-9')).not.toBeNull();
  });
});

describe('own password', () => {
  it('needs the current one', async () => {
    const me = await userOf(a.id, 'finance');
    expect(await runActionAs(changePassword, me, { current_password: 'not-my-password', new_password: 'brand-new-pass-1' })).toMatchObject({
      ok: false,
      fieldErrors: { current_password: 'This is not your current password.' },
    });
    expect(await runActionAs(changePassword, me, { current_password: PASSWORD, new_password: 'short' })).toMatchObject({
      ok: false,
      fieldErrors: { new_password: expect.any(String) },
    });
    // Both problems in one answer, not the second only after the first is fixed.
    expect(await runActionAs(changePassword, me, { current_password: 'not-my-password', new_password: 'short' })).toEqual({
      ok: false,
      code: 'validation_error',
      message: expect.any(String),
      fieldErrors: { current_password: 'This is not your current password.', new_password: 'Use at least 10 characters for the password.' },
    });
    expect(await runActionAs(changePassword, me, { current_password: PASSWORD, new_password: PASSWORD })).toMatchObject({
      fieldErrors: { new_password: 'Choose a password other than the current one.' },
    });
    expect((await runActionAs(changePassword, me, { current_password: PASSWORD, new_password: 'brand-new-pass-1' })).ok).toBe(true);
    expect(await signIn(me.email, 'brand-new-pass-1')).not.toBeNull();
    expect(await signIn(me.email, PASSWORD)).toBeNull();
  });
});

describe('the invitation and reset pages over HTTP', () => {
  it('show the business and role for a valid link, and one sentence for any other', async () => {
    const token = tokenOf((await invite(ownerA, `page-${a.id}@example.com`, 'support')).link);
    const page = await fetch(`${inject('baseUrl')}/invite/${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Join Invitations A');
    expect(html).toMatch(/invited as <strong[^>]*>support<\/strong>/);
    for (const path of [`/invite/${'B'.repeat(43)}`, '/invite/short', `/reset/${token}`]) {
      const res = await fetch(`${inject('baseUrl')}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain('link does not work');
    }
  });
});

describe('audit', () => {
  it('says every step in words, and never holds a token', async () => {
    const biz = await createTestBusiness('Audit of invitations');
    const owner = await userOf(biz.id, 'owner');
    const email = `audited-${biz.id}@example.com`;
    const created = await invite(owner, email);
    expect((await acceptInvitationWithToken(testDb(), { token: tokenOf(created.link), password: 'my-own-password-1' })).ok).toBe(true);
    const again = await invite(owner, `second-${biz.id}@example.com`);
    const pending = await listPendingInvitations(testDb(), biz.id);
    expect((await runActionAs(team.revokeInvitation, owner, { invitation_id: pending[0].id })).ok).toBe(true);
    const [joined] = await testDb().select().from(users).where(eq(users.email, email));
    const reset = await runActionAs(team.createResetLink, owner, { user_id: joined.id });
    if (!reset.ok) throw new Error(reset.message);
    expect((await resetPasswordWithToken(testDb(), { token: tokenOf(reset.data.link), password: 'reset-password-1' })).ok).toBe(true);

    const log = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 20, action: 'user' });
    expect(log.items.map((i) => i.action)).toEqual([
      'user.password_reset',
      'user.reset_link_created',
      'user.invitation_revoked',
      'user.invited',
      'user.joined',
      'user.invited',
    ]);
    expect(log.items.find((i) => i.action === 'user.joined')).toMatchObject({ target: email, actorLabel: email });
    const raw = await testDb().select().from(auditLog).where(eq(auditLog.businessId, biz.id));
    const text = JSON.stringify(raw);
    for (const link of [created.link, again.link, reset.data.link]) expect(text).not.toContain(tokenOf(link));
  });
});

describe('invitations to a branch', () => {
  it('carry the branch to the account they make; a cashier needs one once the business has branches; another business’s is not found; audited in both languages', async () => {
    const biz = await createTestBusiness('Invitations to branches');
    const owner = await userOf(biz.id, 'owner');
    // A business with no branches yet invites a cashier with none: their spends are recorded at no branch.
    expect((await runActionAs(team.inviteUser, owner, { email: `early-${biz.id}@example.com`, role: 'cashier' })).ok).toBe(true);
    const branch = async (on: TestBusiness, name: string) => (await on.test.post('/api/v1/locations', { name })).body.data.id as number;
    const [bole, piassa, foreign] = [await branch(biz, 'Bole'), await branch(biz, 'Piassa'), await branch(b, `Elsewhere ${biz.id}`)];
    const email = `cashier-${biz.id}@example.com`;
    expect(await runActionAs(team.inviteUser, owner, { email, role: 'cashier' })).toMatchObject({
      ok: false,
      code: 'validation_error',
      fieldErrors: { location_id: 'Choose the branch this cashier works at: their spends are recorded there.' },
    });
    expect(await runActionAs(team.inviteUser, owner, { email, role: 'cashier', location_id: foreign })).toMatchObject({
      ok: false,
      code: 'location_not_found',
    });
    expect((await listPendingInvitations(testDb(), biz.id)).map((i) => i.email)).not.toContain(email);
    // Any other role may have a branch, or none.
    expect((await runActionAs(team.inviteUser, owner, { email: `ops-${biz.id}@example.com`, role: 'operator' })).ok).toBe(true);

    const created = await runActionAs(team.inviteUser, owner, { email, role: 'cashier', location_id: bole });
    if (!created.ok) throw new Error(created.message);
    expect(created.data).toMatchObject({ email, role: 'cashier', location: 'Bole' });
    expect((await listPendingInvitations(testDb(), biz.id)).find((i) => i.email === email)).toMatchObject({ role: 'cashier', location: 'Bole' });
    expect(await findInvitation(testDb(), tokenOf(created.data.link))).toMatchObject({ state: 'valid', role: 'cashier', location: 'Bole' });
    expect((await acceptInvitationWithToken(testDb(), { token: tokenOf(created.data.link), password: 'cashier-password-1' })).ok).toBe(true);
    const [joined] = await testDb().select().from(users).where(eq(users.email, email));
    expect(joined).toMatchObject({ businessId: biz.id, role: 'cashier', locationId: bole });
    expect(await signIn(email, 'cashier-password-1')).toMatchObject({ role: 'cashier', businessId: biz.id });

    // The owner moves the cashier to another branch on the Team page.
    expect(await runActionAs(setUserLocationAction, owner, { user_id: joined.id, location_id: piassa })).toMatchObject({ ok: true });
    expect(await runActionAs(setUserLocationAction, owner, { user_id: joined.id, location_id: null })).toMatchObject({ ok: true });

    const log = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 20, action: 'user' });
    const ofCashier = log.items.filter((i) => i.target === email).reverse();
    expect(ofCashier.map((i) => [i.action, i.details.location ?? null])).toEqual([
      ['user.invited', 'Bole'],
      ['user.joined', 'Bole'],
      ['user.location_changed', 'Piassa'],
      ['user.location_changed', null],
    ]);
    const sentences = (locale: 'en' | 'am') => ofCashier.map((i) => auditSentence(i, 'Africa/Addis_Ababa', { locale, calendar: 'gregorian' }));
    expect(sentences('en')).toEqual([
      `Invited ${email} to join the team as cashier at Bole; the link works once, for 48 hours.`,
      `${email} accepted the invitation and joined the team as cashier at Bole.`,
      `Tied ${email} to the branch Piassa.`,
      `Untied ${email} from their branch.`,
    ]);
    const amharic = sentences('am');
    expect(amharic[0]).toContain('Bole');
    expect(amharic[2]).toContain('Piassa');
    for (const line of amharic) expect(line).toMatch(/[\u1200-\u137f]/);
    expect(new Set(amharic).size).toBe(4);
  });
});

const signedOut = async (cookie: string) => {
  const res = await getWithSession('/cards', cookie);
  return res.status === 307 && new URL(res.location!, 'http://x').pathname === '/login';
};

describe('sessions after a password change', () => {
  it('a cookie taken before a reset is sent to sign in after it; a new sign-in works', async () => {
    const teammate = await userOf(a.id, 'operator');
    const before = await signInOverHttp(teammate.email, PASSWORD);
    expect((await getWithSession('/cards', before.cookie!)).status).toBe(200);
    const made = await runActionAs(team.createResetLink, ownerA, { user_id: teammate.userId });
    if (!made.ok) throw new Error(made.message);
    expect((await resetPasswordWithToken(testDb(), { token: tokenOf(made.data.link), password: 'after-reset-pass-1' })).ok).toBe(true);
    expect(await signedOut(before.cookie!)).toBe(true);
    const after = await signInOverHttp(teammate.email, 'after-reset-pass-1');
    expect((await getWithSession('/cards', after.cookie!)).status).toBe(200);
  });

  it('changing your own password ends your sessions, the one that changed it too', async () => {
    const me = await userOf(a.id, 'finance');
    const before = await signInOverHttp(me.email, PASSWORD);
    expect((await getWithSession('/account', before.cookie!)).status).toBe(200);
    expect((await runActionAs(changePassword, me, { current_password: PASSWORD, new_password: 'brand-new-pass-2' })).ok).toBe(true);
    expect(await signedOut(before.cookie!)).toBe(true);
    const login = await getWithSession('/login?done=password', before.cookie!);
    expect(login.status).toBe(200);
    expect(login.text).toContain('you were signed out everywhere: sign in with the new one');
  });
});

describe('links and bcrypt', () => {
  it('hash the chosen password only for a live link, so made-up tokens cost no hashing', async () => {
    const hash = vi.spyOn(bcrypt, 'hash');
    try {
      for (let i = 0; i < 3; i++) {
        expect(await acceptInvitationWithToken(testDb(), { token: 'C'.repeat(43), password: 'my-own-password-1' })).toMatchObject({
          ok: false,
          code: 'not_found',
        });
        expect(await resetPasswordWithToken(testDb(), { token: 'D'.repeat(43), password: 'my-own-password-1' })).toMatchObject({
          ok: false,
          code: 'not_found',
        });
      }
      expect(hash).not.toHaveBeenCalled();
      const live = tokenOf((await invite(ownerA, `hashed-${a.id}@example.com`)).link);
      expect((await acceptInvitationWithToken(testDb(), { token: live, password: 'my-own-password-1' })).ok).toBe(true);
      expect(hash).toHaveBeenCalledTimes(1);
    } finally {
      hash.mockRestore();
    }
  });
});

describe("an owner's links end with their ownership", () => {
  it('are revoked when the owner is demoted or removed, in the same step, and the audit says how many', async () => {
    const biz = await createTestBusiness('Links of owners');
    const first = await userOf(biz.id, 'owner');
    const second = await userOf(biz.id, 'owner');
    const third = await userOf(biz.id, 'owner');
    const teammate = await userOf(biz.id, 'support');

    const linksOf = async (owner: DashboardSession, tag: string) => {
      const invited = tokenOf((await invite(owner, `${tag}-${biz.id}@example.com`)).link);
      const reset = await runActionAs(team.createResetLink, owner, { user_id: teammate.userId });
      if (!reset.ok) throw new Error(reset.message);
      return { invited, reset: tokenOf(reset.data.link) };
    };
    const ofSecond = await linksOf(second, 'by-second');
    expect(await findInvitation(testDb(), ofSecond.invited)).toMatchObject({ state: 'valid' });
    expect(await findPasswordReset(testDb(), ofSecond.reset)).toMatchObject({ state: 'valid' });
    expect((await runActionAs(team.updateUserRole, first, { user_id: second.userId, role: 'operator' })).ok).toBe(true);
    expect(await findInvitation(testDb(), ofSecond.invited)).toEqual({ state: 'invalid' });
    expect(await findPasswordReset(testDb(), ofSecond.reset)).toEqual({ state: 'invalid' });
    expect(await acceptInvitationWithToken(testDb(), { token: ofSecond.invited, password: 'my-own-password-1' })).toMatchObject({
      ok: false,
      code: 'not_found',
    });

    const ofThird = await linksOf(third, 'by-third');
    // The first owner's own invitation stays: only the links of the one leaving end.
    const ofFirst = tokenOf((await invite(first, `by-first-${biz.id}@example.com`)).link);
    expect((await runActionAs(team.removeUser, first, { user_id: third.userId })).ok).toBe(true);
    expect(await findInvitation(testDb(), ofThird.invited)).toEqual({ state: 'invalid' });
    expect(await resetPasswordWithToken(testDb(), { token: ofThird.reset, password: 'my-own-password-1' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await findInvitation(testDb(), ofFirst)).toMatchObject({ state: 'valid' });

    const log = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 20, action: 'user' });
    expect(log.items.find((i) => i.action === 'user.removed')?.details).toMatchObject({ role: 'owner', invitations_revoked: 1, reset_links_revoked: 1 });
    expect(log.items.find((i) => i.action === 'user.role_changed')?.details).toMatchObject({
      from: 'owner',
      to: 'operator',
      invitations_revoked: 1,
      reset_links_revoked: 1,
    });
  });
});
