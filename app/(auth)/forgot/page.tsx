import Link from 'next/link';
import { AuthCard } from '@/components/auth/auth-card';
import { ForgotPasswordForm } from '@/components/auth/forgot-password-form';
import { mailConfigured } from '@/lib/mail/send-mail';

export const metadata = { title: 'Forgot password · Gift cards' };
// Whether mail is set up is read when the page is asked for, not when it was built.
export const dynamic = 'force-dynamic';

export default function ForgotPage() {
  return (
    <AuthCard title="Forgot your password?">
      {mailConfigured() ? (
        <>
          <p className="mt-2 text-sm text-slate-700">Type the email you sign in with: we mail a link to choose a new password.</p>
          <ForgotPasswordForm />
        </>
      ) : (
        <p className="mt-4 text-sm text-slate-700" data-testid="forgot-ask-owner">
          This service sends no mail, so ask an owner of your business: on the Team page they can make you a link to choose a new password.
        </p>
      )}
      <Link href="/login" className="mt-4 inline-block text-sm font-medium text-emerald-800 underline underline-offset-2">
        Back to sign-in
      </Link>
    </AuthCard>
  );
}
