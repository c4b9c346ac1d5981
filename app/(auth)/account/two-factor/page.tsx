import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { redirect } from 'next/navigation';
import { TwoFactorSetupForm } from '@/components/account/two-factor-setup-form';
import { AuthCard } from '@/components/auth/auth-card';
import { SignOutButton } from '@/components/dashboard/sign-out-button';
import { Notice } from '@/components/ui/notice';
import { startTwoFactorSetup } from '@/lib/auth/two-factor';
import { getDb } from '@/lib/db/client';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('TwoFactorSetup');
  return { title: t('metaTitle') };
}

/** Outside the dashboard's layout: a user the business requires to have it reaches this page and nothing else. */
export default async function TwoFactorSetupPage() {
  const session = await requirePage(undefined, { twoFactorSetup: true });
  const setup = await startTwoFactorSetup(getDb(), session.userId);
  if (!setup) redirect('/account');
  const groups = setup.secret.match(/.{1,4}/g) ?? [setup.secret];
  const t = await getTranslations('TwoFactorSetup');
  return (
    <AuthCard title={t('title')} wide>
      {session.mustSetUpTwoFactor && (
        <div className="mt-4">
          <Notice tone="info" testId="two-factor-required-notice">
            {t('required')}
          </Notice>
        </div>
      )}
      <div className="mt-4 text-sm text-slate-800">
        <TwoFactorSetupForm
          steps={
            <ol className="space-y-5">
              <li>
                <p>
                  <strong className="font-semibold">1.</strong> {t('step1')}
                </p>
                {/* biome-ignore lint/performance/noImgElement: a data: URL drawn on the server; next/image has nothing to optimise. */}
                <img src={setup.qrDataUrl} alt={t('qrAlt', { email: session.email })} width={220} height={220} className="mx-auto mt-3" />
                <p className="mt-3">{t('typeKey')}</p>
                <p
                  className="mt-1 break-words rounded-lg bg-slate-50 px-3 py-2 font-mono text-base tracking-wide ring-1 ring-slate-200"
                  data-testid="manual-key"
                  data-key={setup.secret}
                >
                  {groups.join(' ')}
                </p>
              </li>
              <li>
                <strong className="font-semibold">2.</strong> {t('step2')}
              </li>
            </ol>
          }
        />
      </div>
      <div className="mt-6 flex items-center justify-between gap-3 border-t border-slate-100 pt-4 text-sm">
        {session.mustSetUpTwoFactor ? (
          <span className="min-w-0 break-all text-slate-600">{t('signedInAs', { email: session.email })}</span>
        ) : (
          <Link href="/account" className="font-medium text-emerald-800 underline">
            {t('backToAccount')}
          </Link>
        )}
        <div className="shrink-0">
          <SignOutButton />
        </div>
      </div>
    </AuthCard>
  );
}
