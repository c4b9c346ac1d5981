import { and, eq, isNull } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { forgotPasswordWithEmail, resetPasswordWithToken } from '../lib/actions/link-actions';
import { findPasswordReset } from '../lib/auth/password-resets';
import { authorizeSignIn } from '../lib/auth/sign-in';
import { SignInLimits } from '../lib/auth/sign-in-limits';
import { passwordResets } from '../lib/db/schema';
import { createTestBusiness, testDb } from './helpers';
import { startFakeSmtp } from './fake-smtp';
import { userOf } from './owners-auth-helpers';

process.env.DATABASE_URL = inject('databaseUrl');

let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
let businessId: number;
beforeAll(async () => {
  businessId = (await createTestBusiness('Forgetful')).id;
});
afterEach(async () => {
  delete process.env.SMTP_URL;
  await smtp?.close();
});

const linkIn = (message: string) => /https?:\/\/\S+\/reset\/[0-9A-Za-z]{43}/.exec(message.replace(/=\r\n/g, ''))?.[0];
const openResets = async (userId: number) =>
  testDb()
    .select()
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));

describe('Forgot password', () => {
  it('with SMTP set, mails the account a single-use link that sets a new password; once in ten minutes at most', async () => {
    smtp = await startFakeSmtp();
    process.env.SMTP_URL = smtp.url;
    const user = await userOf(businessId, 'finance');
    const sent = await forgotPasswordWithEmail(testDb(), { email: user.email.toUpperCase() });
    expect(sent).toEqual({ ok: true, data: { email: user.email.toUpperCase() } });
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]).toMatch(new RegExp(`^To: ${user.email}`, 'mi'));
    expect(smtp.messages[0]).toContain('asked on the sign-in page');
    const link = linkIn(smtp.messages[0])!;
    expect(await findPasswordReset(testDb(), link.split('/').pop()!)).toMatchObject({ state: 'valid', email: user.email });

    // Asked again at once: no second mail, the first link still works.
    await forgotPasswordWithEmail(testDb(), { email: user.email });
    expect(smtp.messages).toHaveLength(1);
    expect(await openResets(user.userId)).toHaveLength(1);

    const used = await resetPasswordWithToken(testDb(), { token: link.split('/').pop(), password: 'a-new-long-password-9' });
    expect(used.ok).toBe(true);
    const signedIn = await authorizeSignIn(testDb(), new SignInLimits(1000), { email: user.email, password: 'a-new-long-password-9', address: '192.0.2.9' });
    expect(signedIn).toBeTruthy();
  });

  it('answers the same for an unknown email and mails nothing; a malformed one is a field error', async () => {
    smtp = await startFakeSmtp();
    process.env.SMTP_URL = smtp.url;
    expect(await forgotPasswordWithEmail(testDb(), { email: 'nobody-here@example.com' })).toEqual({ ok: true, data: { email: 'nobody-here@example.com' } });
    expect(smtp.messages).toHaveLength(0);
    const bad = await forgotPasswordWithEmail(testDb(), { email: 'not an email' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.fieldErrors?.email).toBeTruthy();
  });

  it('without SMTP makes no link at all: the page tells the reader to ask an owner', async () => {
    const user = await userOf(businessId, 'operator');
    await forgotPasswordWithEmail(testDb(), { email: user.email });
    expect(await openResets(user.userId)).toHaveLength(0);
  });
});
