import { getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { AuthCard } from '@/components/auth/auth-card';
import { ChoosePasswordForm } from '@/components/auth/choose-password-form';
import { findPasswordReset } from '@/lib/auth/password-resets';
import { getDb } from '@/lib/db/client';

export async function generateMetadata() {
  const t = await getTranslations('SignInLinks');
  return { title: t('reset.metaTitle'), referrer: 'no-referrer' as const };
}

export default async function ResetPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [reset, t] = await Promise.all([findPasswordReset(getDb(), token), getTranslations('SignInLinks')]);
  if (reset.state === 'invalid') {
    return (
      <AuthCard title={t('reset.invalidTitle')}>
        <p className="mt-4 text-sm text-slate-700">{t('reset.invalid')}</p>
        <Link href="/login" className="mt-4 inline-block text-sm font-medium text-emerald-800 underline">
          {t('goToSignIn')}
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('reset.title')}>
      <p className="mt-2 text-sm text-slate-700" data-testid="reset-summary">
        {t.rich('reset.summary', { business: reset.businessName, email: () => <span className="break-all">{reset.email}</span> })}
      </p>
      <ChoosePasswordForm token={token} email={reset.email} kind="reset" />
    </AuthCard>
  );
}
