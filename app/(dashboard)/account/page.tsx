import { eq } from 'drizzle-orm';
import { ChangePasswordForm } from '@/components/account/change-password-form';
import { DisableTwoFactorForm } from '@/components/account/disable-two-factor-form';
import { LocalTime } from '@/components/ui/local-time';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { isTwoFactorRequired } from '@/lib/auth/require-two-factor';
import { recoveryCodesLeft } from '@/lib/auth/two-factor';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { requirePage } from '@/server/session';
import { LinkButton } from '@/components/ui/link-button';

export const metadata = { title: 'Your account · Gift cards' };

export default async function AccountPage() {
  const session = await requirePage('account');
  const db = getDb();
  const [[me], required, codesLeft] = await Promise.all([
    db.select({ totpEnabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, session.userId)),
    isTwoFactorRequired(db, session.businessId),
    recoveryCodesLeft(db, session.userId),
  ]);
  const onSince = me?.totpEnabledAt?.toISOString() ?? null;
  return (
    <>
      <PageHeader
        title="Your account"
        description={`How you sign in, as ${session.email}: your password, and a code from your phone when two-factor sign-in is on.`}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel title="Password">
          <ChangePasswordForm email={session.email} />
        </Panel>
        <Panel title="Two-factor sign-in">
          {onSince ? (
            <div className="space-y-4">
              <p className="text-sm text-slate-800" data-testid="two-factor-status">
                On since <LocalTime iso={onSince} />. You sign in with your password and a code from your authenticator app. {codesLeft}{' '}
                {codesLeft === 1 ? 'recovery code is' : 'recovery codes are'} left.
              </p>
              {required ? <p className="text-sm text-slate-700">Your business requires it, so it cannot be turned off.</p> : <DisableTwoFactorForm />}
            </div>
          ) : (
            <div className="space-y-4">
              <p className="text-sm text-slate-800" data-testid="two-factor-status">
                Off. With it on, a stolen password alone is not enough to sign in: each sign-in also needs a 6-digit code from an app on your phone.
              </p>
              <LinkButton href="/account/two-factor" size="md">
                Turn on two-factor sign-in
              </LinkButton>
            </div>
          )}
        </Panel>
      </div>
    </>
  );
}
