import { getTranslations } from 'next-intl/server';
import { redirect } from 'next/navigation';
import { LoginForm } from '@/components/auth/login-form';
import { getDashboardSession } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('SignIn');
  return { title: t('metaTitle') };
}

/** What a finished step (?done=) says above the form: the keys of SignIn.done. */
const DONE = new Set(['invitation', 'reset', 'password', 'two-factor-on', 'two-factor-off']);

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ done?: string | string[] }> }) {
  if (await getDashboardSession()) redirect('/');
  const { done } = await searchParams;
  const t = await getTranslations('SignIn');
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-xl font-semibold">{t('heading')}</h1>
        <LoginForm notice={typeof done === 'string' && DONE.has(done) ? t(`done.${done}`) : undefined} />
      </div>
    </main>
  );
}
