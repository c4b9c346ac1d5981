import { eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { changePassword, confirmTwoFactor, disableTwoFactor } from '../lib/actions/account-actions';
import { runActionAs } from '../lib/actions/define-action';
import * as developer from '../lib/actions/developer-actions';
import * as team from '../lib/actions/team-actions';
import type { DashboardSession } from '../lib/auth/session-types';
import { authorizeSignIn, CODE_ALREADY_USED, TWO_FACTOR_NEEDED } from '../lib/auth/sign-in';
import { SIGN_IN_LIMITED, SignInLimits } from '../lib/auth/sign-in-limits';
import { startTwoFactorSetup } from '../lib/auth/two-factor';
import { listAuditLog } from '../lib/dashboard/list-audit-log';
import { recoveryCodes, users } from '../lib/db/schema';
import { sha256Hex } from '../lib/ids';
import { createTestBusiness, testDb, type TestBusiness } from './helpers';
import { getWithSession, PASSWORD, signInOverHttp, userOf } from './owners-auth-helpers';

process.env.DATABASE_URL = inject('databaseUrl');

const now = () => Math.floor(Date.now() / 1000);
/** The code of the step `steps` after the current one: each test takes a step never used before. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: now() + steps * 30 });

/** Turns 2FA on for a session's user with the current step's code; returns the key, that code (now spent) and the recovery codes. */
async function turnOn(session: DashboardSession) {
  const setup = await startTwoFactorSetup(testDb(), session.userId);
  if (!setup) throw new Error('already on');
  const setupCode = await codeAt(setup.secret);
  const res = await runActionAs(confirmTwoFactor, session, { code: setupCode });
  if (!res.ok) throw new Error(res.message);
  return { secret: setup.secret, setupCode, recovery: res.data.recoveryCodes };
}

let biz: TestBusiness;
beforeAll(async () => {
  biz = await createTestBusiness('Two-factor');
});

describe('set-up', () => {
  it('keeps the key while unconfirmed, turns on with a right code only, and gives ten recovery codes kept as hashes', async () => {
    const me = await userOf(biz.id, 'operator');
    const first = await startTwoFactorSetup(testDb(), me.userId);
    const again = await startTwoFactorSetup(testDb(), me.userId);
    expect(first?.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(again?.secret).toBe(first?.secret);
    expect(first?.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const secret = first!.secret;

    const wrong = String((Number(await codeAt(secret)) + 1) % 1_000_000).padStart(6, '0');
    expect(await runActionAs(confirmTwoFactor, me, { code: wrong })).toMatchObject({ ok: false, fieldErrors: { code: expect.stringContaining('not right') } });
    expect(await runActionAs(confirmTwoFactor, me, { code: 'abc' })).toMatchObject({ ok: false, fieldErrors: { code: expect.any(String) } });
    const on = await runActionAs(confirmTwoFactor, me, { code: await codeAt(secret) });
    if (!on.ok) throw new Error(on.message);
    expect(on.data.recoveryCodes).toHaveLength(10);
    expect(new Set(on.data.recoveryCodes).size).toBe(10);
    for (const c of on.data.recoveryCodes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await testDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, me.userId));
    expect(stored.map((r) => r.codeHash).sort()).toEqual(on.data.recoveryCodes.map((c) => sha256Hex(c.replace('-', ''))).sort());
    expect(await startTwoFactorSetup(testDb(), me.userId)).toBeNull();
    expect(await runActionAs(confirmTwoFactor, me, { code: await codeAt(secret, 1) })).toMatchObject({ ok: false, code: 'already_exists' });
  });
});

describe('sign-in with two-factor', () => {
  it('asks for a code only after a right password, takes each code once, and counts wrong codes as failures', async () => {
    const me = await userOf(biz.id, 'finance');
    const plain = await userOf(biz.id, 'finance');
    const { secret, setupCode } = await turnOn(me);
    const limits = new SignInLimits(1000);
    const attempt = (password: string, code?: string, address = '192.0.2.10', email = me.email) =>
      authorizeSignIn(testDb(), limits, { email, password, code, address });

    // A wrong password reads the same with two-factor on or off: nothing tells a guesser it is on.
    expect(await attempt('wrong-password', undefined, '192.0.2.11')).toBeNull();
    expect(await attempt('wrong-password', undefined, '192.0.2.11', plain.email)).toBeNull();
    expect(await attempt('wrong-password', await codeAt(secret, 1), '192.0.2.11')).toBeNull();
    await expect(attempt(PASSWORD)).rejects.toThrow(TWO_FACTOR_NEEDED);
    expect(await attempt(PASSWORD, undefined, '192.0.2.12', plain.email)).toMatchObject({ id: plain.userId });

    // The set-up's own code is spent (the sign-in says so, rather than calling it wrong); the next step's code works once.
    // A wrong code with the right password is still just wrong.
    await expect(attempt(PASSWORD, setupCode)).rejects.toThrow(CODE_ALREADY_USED);
    expect(await attempt(PASSWORD, String((Number(setupCode) + 1) % 1_000_000).padStart(6, '0'))).toBeNull();
    const next = await codeAt(secret, 1);
    expect(await attempt(PASSWORD, next)).toMatchObject({ id: me.userId, role: 'finance', businessId: biz.id });
    await expect(attempt(PASSWORD, next)).rejects.toThrow(CODE_ALREADY_USED);
    const [row] = await testDb().select({ lastSignInAt: users.lastSignInAt }).from(users).where(eq(users.id, me.userId));
    expect(row.lastSignInAt).not.toBeNull();

    // Wrong codes from one address: the fifth makes the next attempt wait, even with a right code.
    // Asking for the code in between (right password, no code) does not clear the count.
    // (The user's own count in the database is cleared first: it is tested below.)
    await testDb().update(users).set({ totpFailures: 0 }).where(eq(users.id, me.userId));
    const address = '192.0.2.13';
    for (let i = 0; i < 4; i++) expect(await attempt(PASSWORD, '000000', address)).toBeNull();
    await expect(attempt(PASSWORD, undefined, address)).rejects.toThrow(TWO_FACTOR_NEEDED);
    expect(await attempt(PASSWORD, 'zzzzz-zzzzz', address)).toBeNull();
    await expect(attempt(PASSWORD, await codeAt(secret, 1), address)).rejects.toThrow(SIGN_IN_LIMITED);
  });

  it('takes the same code once when two sign-ins race with it', async () => {
    const me = await userOf(biz.id, 'support');
    const { secret } = await turnOn(me);
    const code = await codeAt(secret, 1);
    const limits = new SignInLimits(1000);
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map((i) => authorizeSignIn(testDb(), limits, { email: me.email, password: PASSWORD, code, address: `192.0.2.2${i}` })),
    );
    expect(results.filter((r) => r.status === 'fulfilled' && r.value !== null)).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(String(r.reason)).toContain(CODE_ALREADY_USED);
  });

  it('takes each recovery code once, in any case and spacing, and audits it with how many are left', async () => {
    const me = await userOf(biz.id, 'operator');
    const { recovery } = await turnOn(me);
    const limits = new SignInLimits(1000);
    const attempt = (code: string) => authorizeSignIn(testDb(), limits, { email: me.email, password: PASSWORD, code, address: '192.0.2.30' });
    expect(await attempt(` ${recovery[3].toUpperCase().replace('-', ' ')} `)).toMatchObject({ id: me.userId });
    expect(await attempt(recovery[3])).toBeNull();
    expect(await attempt(recovery[4])).toMatchObject({ id: me.userId });
    const left = await testDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, me.userId));
    expect(left.filter((r) => r.usedAt === null)).toHaveLength(8);
    const log = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 5, action: 'user.recovery_code_used' });
    expect(log.items.filter((i) => i.target === me.email).map((i) => i.details.codes_left)).toEqual([8, 9]);
  });

  it('signs in over HTTP: the code step answers TwoFactorRequired without a session cookie', async () => {
    const me = await userOf(biz.id, 'operator');
    const { secret } = await turnOn(me);
    expect(await signInOverHttp(me.email, 'wrong-password')).toEqual({ cookie: null, error: 'CredentialsSignin' });
    expect(await signInOverHttp(me.email, PASSWORD)).toEqual({ cookie: null, error: 'TwoFactorRequired' });
    expect(await signInOverHttp(me.email, PASSWORD, '123456')).toMatchObject({ cookie: null, error: 'CredentialsSignin' });
    const ok = await signInOverHttp(me.email, PASSWORD, await codeAt(secret, 1));
    expect(ok.error).toBeNull();
    expect(ok.cookie).toMatch(/^next-auth\.session-token=/);
    expect((await getWithSession('/cards', ok.cookie!)).status).toBe(200);
  });
});

describe('turning it off', () => {
  it('needs a current code or a recovery code, never the password alone, and is refused while the business requires it', async () => {
    const me = await userOf(biz.id, 'operator');
    const { secret, setupCode } = await turnOn(me);
    expect(await runActionAs(disableTwoFactor, me, { proof: 'not-my-password' })).toMatchObject({ ok: false, fieldErrors: { proof: expect.any(String) } });
    expect(await runActionAs(disableTwoFactor, me, { proof: PASSWORD })).toMatchObject({ ok: false, fieldErrors: { proof: expect.any(String) } });
    expect(await runActionAs(disableTwoFactor, me, { proof: setupCode })).toMatchObject({ ok: false });
    expect(await runActionAs(disableTwoFactor, me, { proof: await codeAt(secret, 1) })).toEqual({ ok: true, data: { off: true } });
    const [row] = await testDb().select().from(users).where(eq(users.id, me.userId));
    expect(row).toMatchObject({ totpSecret: null, totpEnabledAt: null });
    expect(await testDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, me.userId))).toHaveLength(0);
    expect(await authorizeSignIn(testDb(), new SignInLimits(1000), { email: me.email, password: PASSWORD, address: '192.0.2.40' })).toMatchObject({
      id: me.userId,
    });

    const again = await turnOn(me);
    expect((await runActionAs(disableTwoFactor, me, { proof: again.recovery[0] })).ok).toBe(true);
    expect(again.secret).not.toBe(secret);
    const log = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 50, action: 'user' });
    const mine = log.items.filter((i) => i.target === me.email).map((i) => [i.action, i.details.proof ?? null]);
    expect(mine).toEqual([
      ['user.two_factor_disabled', 'recovery_code'],
      ['user.recovery_code_used', null],
      ['user.two_factor_enabled', null],
      ['user.two_factor_disabled', 'code'],
      ['user.two_factor_enabled', null],
    ]);
    expect(JSON.stringify(log.items)).not.toContain(secret);
  });
});

describe('a business that requires two-factor sign-in', () => {
  it('sends a user without it to set-up on every page, refuses their actions and routes, and lets them set it up', async () => {
    const required = await createTestBusiness('Requires two-factor');
    const owner = await userOf(required.id, 'owner');
    const operator = await userOf(required.id, 'operator');

    expect(await runActionAs(team.setTwoFactorRequired, owner, { required: true })).toMatchObject({ ok: false, code: 'forbidden' });
    const ownerKey = await turnOn(owner);
    expect(await runActionAs(team.setTwoFactorRequired, operator, { required: true })).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await runActionAs(team.setTwoFactorRequired, owner, { required: true })).toEqual({ ok: true, data: { required: true } });
    expect(await runActionAs(disableTwoFactor, owner, { proof: PASSWORD })).toMatchObject({ ok: false, code: 'forbidden' });

    // The operator signs in with a password alone (they have no code yet), and can reach only the set-up.
    const { cookie } = await signInOverHttp(operator.email, PASSWORD);
    if (!cookie) throw new Error('operator could not sign in');
    for (const path of ['/', '/cards', '/payouts', '/payments', '/account', '/team', '/developers', '/audit', '/reports']) {
      const res = await getWithSession(path, cookie);
      expect(res.status, path).toBe(307);
      expect(new URL(res.location!, 'http://x').pathname, path).toBe('/account/two-factor');
    }
    for (const path of ['/api/dashboard/payouts', '/api/dashboard/search?q=abc']) {
      const res = await getWithSession(path, cookie);
      expect(res.status, path).toBe(403);
      expect(res.text).toContain('two-factor');
    }
    const setupPage = await getWithSession('/account/two-factor', cookie);
    expect(setupPage.status).toBe(200);
    expect(setupPage.text).toContain('Your business requires two-factor sign-in');
    expect(setupPage.text).toMatch(/<img[^>]+src="data:image\/png;base64,/);
    const key = /data-key="([A-Z2-7]+)"/.exec(setupPage.text)?.[1];
    expect(key).toBeDefined();

    // Actions: refused, except the set-up's own.
    const pending = { ...operator, mustSetUpTwoFactor: true };
    expect(await runActionAs(developer.createApiKey, { ...owner, mustSetUpTwoFactor: true }, { name: 'x', mode: 'test' })).toEqual({
      ok: false,
      code: 'forbidden',
      message: 'Forbidden: Your business requires two-factor sign-in: set it up on your account page first.',
    });
    const confirmed = await runActionAs(confirmTwoFactor, pending, { code: await codeAt(key!) });
    expect(confirmed.ok).toBe(true);

    // Turning it on ended the session that did it: the operator signs in again, now with a code.
    const ended = await getWithSession('/cards', cookie);
    expect(ended.status).toBe(307);
    expect(new URL(ended.location!, 'http://x').pathname).toBe('/login');
    const again = await signInOverHttp(operator.email, PASSWORD, await codeAt(key!, 1));
    expect((await getWithSession('/cards', again.cookie!)).status).toBe(200);
    expect((await getWithSession('/account/two-factor', again.cookie!)).status).toBe(307);

    // The owner, with two-factor, was never held back.
    const ownerSignIn = await signInOverHttp(owner.email, PASSWORD, await codeAt(ownerKey.secret, 1));
    expect((await getWithSession('/team', ownerSignIn.cookie!)).status).toBe(200);

    const log = await listAuditLog(testDb(), { businessId: required.id, mode: 'test', limit: 10, action: 'business' });
    expect(log.items.map((i) => [i.action, i.details.required])).toEqual([['business.two_factor_required', true]]);
  });
});

const signedOut = async (cookie: string) => {
  const res = await getWithSession('/cards', cookie);
  return res.status === 307 && new URL(res.location!, 'http://x').pathname === '/login';
};

describe('sessions end when two-factor changes', () => {
  it('a cookie from before turning it off is signed out after', async () => {
    const me = await userOf(biz.id, 'finance');
    const { secret, recovery } = await turnOn(me);
    const { cookie } = await signInOverHttp(me.email, PASSWORD, await codeAt(secret, 1));
    expect((await getWithSession('/cards', cookie!)).status).toBe(200);
    expect((await runActionAs(disableTwoFactor, me, { proof: recovery[1] })).ok).toBe(true);
    expect(await signedOut(cookie!)).toBe(true);
    const fresh = await signInOverHttp(me.email, PASSWORD);
    expect((await getWithSession('/cards', fresh.cookie!)).status).toBe(200);
  });
});

const failuresOf = async (userId: number) => {
  const [row] = await testDb().select({ failures: users.totpFailures, lockedUntil: users.totpLockedUntil }).from(users).where(eq(users.id, userId));
  return row;
};
/** The wait has passed (moved by hand rather than slept through). */
const waitPasses = (userId: number) => testDb().update(users).set({ totpLockedUntil: sql`now() - interval '1 second'` }).where(eq(users.id, userId));

describe('the per-user limit on second factors', () => {
  it('after five wrong codes from any addresses refuses even a right one until a wait that grows; a right code clears the count', async () => {
    const me = await userOf(biz.id, 'finance');
    const { secret } = await turnOn(me);
    // A new in-memory limit and a new address for every try: only the count in the database can stop them.
    const attempt = (code: string, i: number) =>
      authorizeSignIn(testDb(), new SignInLimits(1000), { email: me.email, password: PASSWORD, code, address: `198.51.100.${i}` });
    for (let i = 0; i < 5; i++) expect(await attempt('000000', i)).toBeNull();
    await expect(attempt(await codeAt(secret, 1), 10)).rejects.toThrow(SIGN_IN_LIMITED);
    let row = await failuresOf(me.userId);
    expect(row.failures).toBe(5);
    expect(row.lockedUntil!.getTime() - Date.now()).toBeGreaterThan(50_000);
    expect(row.lockedUntil!.getTime() - Date.now()).toBeLessThanOrEqual(61_000);

    // A wrong password never reaches the count: only someone who knows it can lock the account.
    await expect(attempt(await codeAt(secret, 1), 11)).rejects.toThrow(SIGN_IN_LIMITED);
    expect(
      await authorizeSignIn(testDb(), new SignInLimits(1000), { email: me.email, password: 'wrong-password', code: '000000', address: '198.51.100.12' }),
    ).toBeNull();
    expect((await failuresOf(me.userId)).failures).toBe(5);

    await waitPasses(me.userId);
    expect(await attempt('000000', 13)).toBeNull();
    row = await failuresOf(me.userId);
    expect(row.failures).toBe(6);
    expect(row.lockedUntil!.getTime() - Date.now()).toBeGreaterThan(110_000);
    expect(row.lockedUntil!.getTime() - Date.now()).toBeLessThanOrEqual(121_000);

    await waitPasses(me.userId);
    expect(await attempt(await codeAt(secret, 1), 14)).toMatchObject({ id: me.userId });
    expect(await failuresOf(me.userId)).toEqual({ failures: 0, lockedUntil: null });
  });

  it('lets at most five of many simultaneous wrong codes be checked', async () => {
    const me = await userOf(biz.id, 'support');
    await turnOn(me);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        authorizeSignIn(testDb(), new SignInLimits(1000), { email: me.email, password: PASSWORD, code: '000000', address: `198.51.100.${100 + i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect((await failuresOf(me.userId)).failures).toBe(5);
  });

  it('counts wrong current passwords on the account page and wrong proofs when turning it off', async () => {
    const me = await userOf(biz.id, 'operator');
    const { recovery } = await turnOn(me);
    for (let i = 0; i < 3; i++) {
      expect(await runActionAs(changePassword, me, { current_password: 'not-my-password', new_password: 'brand-new-pass-1' })).toMatchObject({
        ok: false,
        fieldErrors: { current_password: expect.any(String) },
      });
    }
    for (let i = 0; i < 2; i++)
      expect(await runActionAs(disableTwoFactor, me, { proof: '000000' })).toMatchObject({ ok: false, fieldErrors: { proof: expect.any(String) } });
    expect(await runActionAs(changePassword, me, { current_password: PASSWORD, new_password: 'brand-new-pass-1' })).toMatchObject({
      ok: false,
      code: 'rate_limited',
    });
    expect(await runActionAs(disableTwoFactor, me, { proof: recovery[0] })).toMatchObject({ ok: false, code: 'rate_limited' });
    await waitPasses(me.userId);
    expect((await runActionAs(changePassword, me, { current_password: PASSWORD, new_password: 'brand-new-pass-1' })).ok).toBe(true);
    expect(await failuresOf(me.userId)).toEqual({ failures: 0, lockedUntil: null });
  });
});

describe('a stored step ahead of the clock', () => {
  it('makes a code wrong, not an error', async () => {
    const me = await userOf(biz.id, 'support');
    const { secret } = await turnOn(me);
    await testDb()
      .update(users)
      .set({ totpLastStep: Math.floor(Date.now() / 30_000) + 10 })
      .where(eq(users.id, me.userId));
    const code = await codeAt(secret, 1);
    expect(await authorizeSignIn(testDb(), new SignInLimits(1000), { email: me.email, password: PASSWORD, code, address: '198.51.100.60' })).toBeNull();
    expect(await runActionAs(disableTwoFactor, me, { proof: code })).toMatchObject({
      ok: false,
      code: 'validation_error',
      fieldErrors: { proof: expect.any(String) },
    });
  });
});
