import Link from 'next/link';
import { AuthCard } from '@/components/auth/auth-card';
import { ChoosePasswordForm } from '@/components/auth/choose-password-form';
import { findPasswordReset } from '@/lib/auth/password-resets';
import { getDb } from '@/lib/db/client';

export const metadata = { title: 'Choose a new password · Gift cards', referrer: 'no-referrer' };

export default async function ResetPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const reset = await findPasswordReset(getDb(), token);
  if (reset.state === 'invalid') {
    return (
      <AuthCard title="This reset link does not work">
        <p className="mt-4 text-sm text-slate-700">
          It was used, replaced by a newer one or has expired (links work once, for 24 hours). Ask an owner for a new one.
        </p>
        <Link href="/login" className="mt-4 inline-block text-sm font-medium text-emerald-800 underline">
          Go to sign-in
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password">
      <p className="mt-2 text-sm text-slate-700" data-testid="reset-summary">
        For <span className="break-all">{reset.email}</span> at {reset.businessName}. Two-factor sign-in, if you have it on, stays on.
      </p>
      <ChoosePasswordForm token={token} email={reset.email} kind="reset" />
    </AuthCard>
  );
}
