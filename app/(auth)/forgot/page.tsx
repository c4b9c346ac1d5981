import { getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { AuthCard } from '@/components/auth/auth-card';
import { ForgotPasswordForm } from '@/components/auth/forgot-password-form';
import { mailConfigured } from '@/lib/mail/send-mail';

export async function generateMetadata() {
  const t = await getTranslations('SignInLinks');
  return { title: t('forgot.metaTitle') };
}
// Whether mail is set up is read when the page is asked for, not when it was built.
export const dynamic = 'force-dynamic';

export default async function ForgotPage() {
  const t = await getTranslations('SignInLinks');
  return (
    <AuthCard title={t('forgot.title')}>
      {mailConfigured() ? (
        <>
          <p className="mt-2 text-sm text-slate-700">{t('forgot.intro')}</p>
          <ForgotPasswordForm />
        </>
      ) : (
        <p className="mt-4 text-sm text-slate-700" data-testid="forgot-ask-owner">
          {t('forgot.askOwner')}
        </p>
      )}
      <Link href="/login" className="mt-4 inline-block text-sm font-medium text-emerald-800 underline underline-offset-2">
        {t('backToSignIn')}
      </Link>
    </AuthCard>
  );
}
