'use client';

import Link from 'next/link';
import { signIn } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { getQueryClient } from '@/components/providers/query-client';
import { Button } from '@/components/ui/button';

const input = 'mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 focus:outline-2 focus:outline-emerald-700';

/**
 * Email and password, then, for an account with two-factor sign-in, a second
 * step asking for the code: the password stays in this form and is sent again
 * with the code, so no session exists before both are right.
 */
export function LoginForm({ notice }: { notice?: string }) {
  const t = useTranslations('SignIn');
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [needCode, setNeedCode] = useState(false);
  const credentials = useRef<{ email: string; password: string }>({ email: '', password: '' });

  async function attempt(code?: string) {
    setPending(true);
    setError(null);
    const res = await signIn('credentials', { ...credentials.current, ...(code && { code }), redirect: false });
    setPending(false);
    if (res?.ok) {
      // Whatever the last user of this tab had cached (search hits, recipients) is not for this one.
      getQueryClient().clear();
      router.replace('/');
      router.refresh();
    } else if (res?.error === 'TwoFactorRequired') {
      setNeedCode(true);
    } else if (res?.error === 'CodeAlreadyUsed') {
      setError(t('codeAlreadyUsed'));
    } else if (res?.error === 'TooManyAttempts') {
      setError(t('tooManyAttempts'));
    } else {
      setError(needCode ? t('wrongCode') : t('wrongPassword'));
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (needCode) {
      const code = String(form.get('code') ?? '').trim();
      if (!code) {
        setError(t('enterCode'));
        event.currentTarget.querySelector<HTMLInputElement>('#code')?.focus();
        return;
      }
      await attempt(code);
      return;
    }
    // An empty field is said as such before anything is sent: it is not a wrong password, and costs no sign-in attempt.
    const missing = (['email', 'password'] as const).find((f) => !String(form.get(f) ?? '').trim());
    if (missing) {
      setError(t('enterEmailAndPassword'));
      event.currentTarget.querySelector<HTMLInputElement>(`#${missing}`)?.focus();
      return;
    }
    credentials.current = { email: String(form.get('email')), password: String(form.get('password')) };
    await attempt();
  }

  if (needCode) {
    return (
      <form onSubmit={onSubmit} className="mt-6 space-y-4" noValidate aria-label={t('codeStep')}>
        <p className="text-sm text-slate-700">{t.rich('codeIntro', { email: () => <span className="break-all">{credentials.current.email}</span> })}</p>
        <div>
          <label htmlFor="code" className="block text-sm font-medium text-slate-700">
            {t('code')}
          </label>
          {/* biome-ignore lint/a11y/noAutofocus: the one field of this step, shown in answer to the user's own submit. */}
          <input id="code" name="code" type="text" inputMode="text" autoComplete="one-time-code" autoFocus required className={input} />
        </div>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <Button type="submit" disabled={pending}>
          {pending ? t('checking') : t('verify')}
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="underline"
          onClick={() => {
            setNeedCode(false);
            setError(null);
          }}
        >
          {t('anotherAccount')}
        </Button>
      </form>
    );
  }

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" noValidate>
      {notice && (
        <p role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {notice}
        </p>
      )}
      <div>
        <label htmlFor="email" className="block text-sm font-medium text-slate-700">
          {t('email')}
        </label>
        <input id="email" name="email" type="email" autoComplete="username" required className={input} />
      </div>
      <div>
        <div className="flex items-baseline justify-between gap-2">
          <label htmlFor="password" className="block text-sm font-medium text-slate-700">
            {t('password')}
          </label>
          <Link href="/forgot" className="text-sm font-medium text-emerald-800 underline underline-offset-2 hover:text-emerald-950">
            {t('forgot')}
          </Link>
        </div>
        <input id="password" name="password" type="password" autoComplete="current-password" required className={input} />
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" disabled={pending}>
        {pending ? t('signingIn') : t('signIn')}
      </Button>
    </form>
  );
}
