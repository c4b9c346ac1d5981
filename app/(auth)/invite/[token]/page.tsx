import { getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { AuthCard } from '@/components/auth/auth-card';
import { ChoosePasswordForm } from '@/components/auth/choose-password-form';
import { findInvitation } from '@/lib/auth/invitations';
import { getDb } from '@/lib/db/client';

export async function generateMetadata() {
  const t = await getTranslations('SignInLinks');
  return { title: t('invite.metaTitle'), referrer: 'no-referrer' as const };
}

const ROLES = new Set(['owner', 'operator', 'finance', 'support']);

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [invitation, t, shell] = await Promise.all([findInvitation(getDb(), token), getTranslations('SignInLinks'), getTranslations('Shell')]);
  if (invitation.state === 'invalid') {
    return (
      <AuthCard title={t('invite.invalidTitle')}>
        <p className="mt-4 text-sm text-slate-700">{t('invite.invalid')}</p>
        <Link href="/login" className="mt-4 inline-block text-sm font-medium text-emerald-800 underline">
          {t('goToSignIn')}
        </Link>
      </AuthCard>
    );
  }
  const role = ROLES.has(invitation.role) ? shell(`roles.${invitation.role}`) : invitation.role;
  return (
    <AuthCard title={t('invite.title', { business: invitation.businessName })}>
      <p className="mt-2 text-sm text-slate-700" data-testid="invitation-summary">
        {t.rich('invite.summary', {
          role: () => <strong className="font-semibold">{role}</strong>,
          email: () => <span className="break-all">{invitation.email}</span>,
        })}
        {invitation.location && ` ${t('invite.atBranch', { branch: invitation.location })}`}
      </p>
      <ChoosePasswordForm token={token} email={invitation.email} kind="invitation" />
    </AuthCard>
  );
}
