import { redirect } from 'next/navigation';
import { LoginForm } from '@/components/auth/login-form';
import { getDashboardSession } from '@/server/session';

export const metadata = { title: 'Sign in · Gift cards' };

const DONE: Record<string, string> = {
  invitation: 'Your account is ready: sign in with your new password.',
  reset: 'Your new password is saved: sign in with it.',
  password: 'Your password is changed and you were signed out everywhere: sign in with the new one.',
  'two-factor-on': 'Two-factor sign-in is on and you were signed out everywhere: sign in with your password and a code.',
  'two-factor-off': 'Two-factor sign-in is off and you were signed out everywhere: sign in with your password.',
};

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ done?: string | string[] }> }) {
  if (await getDashboardSession()) redirect('/');
  const { done } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-xl font-semibold">Sign in to your gift card dashboard</h1>
        <LoginForm notice={typeof done === 'string' ? DONE[done] : undefined} />
      </div>
    </main>
  );
}
