import Link from 'next/link';
import { AuthCard } from '@/components/auth/auth-card';
import { ChoosePasswordForm } from '@/components/auth/choose-password-form';
import { findInvitation } from '@/lib/auth/invitations';
import { getDb } from '@/lib/db/client';

export const metadata = { title: 'Join a business · Gift cards', referrer: 'no-referrer' };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await findInvitation(getDb(), token);
  if (invitation.state === 'invalid') {
    return (
      <AuthCard title="This invitation link does not work">
        <p className="mt-4 text-sm text-slate-700">
          It was used, revoked or has expired (links work once, for 48 hours). Ask the owner who invited you for a new one.
        </p>
        <Link href="/login" className="mt-4 inline-block text-sm font-medium text-emerald-800 underline">
          Go to sign-in
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={`Join ${invitation.businessName}`}>
      <p className="mt-2 text-sm text-slate-700" data-testid="invitation-summary">
        You are invited as <strong className="font-semibold">{invitation.role}</strong>, signing in as <span className="break-all">{invitation.email}</span>.
      </p>
      <ChoosePasswordForm token={token} email={invitation.email} kind="invitation" />
    </AuthCard>
  );
}
