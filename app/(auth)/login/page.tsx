import { redirect } from 'next/navigation';
import { LoginForm } from '@/components/auth/login-form';
import { getDashboardSession } from '@/server/session';

export const metadata = { title: 'Sign in · Gift cards' };

export default async function LoginPage() {
  if (await getDashboardSession()) redirect('/');
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-xl font-semibold">Sign in to your gift card dashboard</h1>
        <LoginForm />
      </div>
    </main>
  );
}
