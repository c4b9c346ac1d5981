'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { getQueryClient } from '@/components/providers/query-client';
import { Button } from '@/components/ui/button';

export function LoginForm() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // An empty field is said as such before anything is sent: it is not a wrong password, and costs no sign-in attempt.
    const missing = (['email', 'password'] as const).find((f) => !String(form.get(f) ?? '').trim());
    if (missing) {
      setError('Enter your email and password.');
      event.currentTarget.querySelector<HTMLInputElement>(`#${missing}`)?.focus();
      return;
    }
    setPending(true);
    setError(null);
    const res = await signIn('credentials', { email: form.get('email'), password: form.get('password'), redirect: false });
    setPending(false);
    if (res?.ok) {
      // Whatever the last user of this tab had cached (search hits, recipients) is not for this one.
      getQueryClient().clear();
      router.replace('/');
      router.refresh();
    } else {
      setError(res?.error === 'TooManyAttempts' ? 'Too many attempts; wait a minute and try again.' : 'Wrong email or password.');
    }
  }

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" noValidate>
      <div>
        <label htmlFor="email" className="block text-sm font-medium text-slate-700">
          Email
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 focus:outline-2 focus:outline-emerald-700"
        />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium text-slate-700">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 focus:outline-2 focus:outline-emerald-700"
        />
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
