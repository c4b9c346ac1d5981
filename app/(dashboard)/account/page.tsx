import { eq } from 'drizzle-orm';
import { getTranslations } from 'next-intl/server';
import { ChangePasswordForm } from '@/components/account/change-password-form';
import { DisableTwoFactorForm } from '@/components/account/disable-two-factor-form';
import { PreferencesForm } from '@/components/account/preferences-form';
import { LocalTime } from '@/components/ui/local-time';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { isTwoFactorRequired } from '@/lib/auth/require-two-factor';
import { recoveryCodesLeft } from '@/lib/auth/two-factor';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { requirePage } from '@/server/session';
import { LinkButton } from '@/components/ui/link-button';

export async function generateMetadata() {
  const t = await getTranslations('Account');
  return { title: t('metaTitle') };
}

export default async function AccountPage() {
  const session = await requirePage('account');
  const t = await getTranslations('Account');
  const db = getDb();
  const [[me], required, codesLeft] = await Promise.all([
    db.select({ totpEnabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, session.userId)),
    isTwoFactorRequired(db, session.businessId),
    recoveryCodesLeft(db, session.userId),
  ]);
  const onSince = me?.totpEnabledAt?.toISOString() ?? null;
  return (
    <>
      <PageHeader title={t('title')} description={t('description', { email: session.email })} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel title={t('preferencesTitle')}>
          <PreferencesForm language={session.language ?? null} calendar={session.calendar ?? 'gregorian'} />
        </Panel>
        <Panel title={t('passwordTitle')}>
          <ChangePasswordForm email={session.email} />
        </Panel>
        <Panel title={t('twoFactorTitle')}>
          {onSince ? (
            <div className="space-y-4">
              <p className="text-sm text-slate-800" data-testid="two-factor-status">
                {t.rich('twoFactorOn', { since: () => <LocalTime iso={onSince} />, count: codesLeft })}
              </p>
              {required ? <p className="text-sm text-slate-700">{t('twoFactorRequired')}</p> : <DisableTwoFactorForm />}
            </div>
          ) : (
            <div className="space-y-4">
              <p className="text-sm text-slate-800" data-testid="two-factor-status">
                {t('twoFactorOff')}
              </p>
              <LinkButton href="/account/two-factor" size="md">
                {t('turnOnTwoFactor')}
              </LinkButton>
            </div>
          )}
        </Panel>
      </div>
    </>
  );
}
