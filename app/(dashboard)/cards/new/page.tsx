import { getTranslations } from 'next-intl/server';
import { CreateCardFormView } from '@/components/cards/create-card-form';
import { getBusinessExpiry } from '@/lib/business/expiry-policy';
import { cardExpiresAt } from '@/lib/cards/card-expiry';
import { getDb } from '@/lib/db/client';
import { formatDay } from '@/lib/i18n/date-text';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { dateSettingsOf } from '@/server/date-settings';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('NewCard');
  return { title: t('metaTitle') };
}

export default async function NewCardPage() {
  const session = await requirePage('cards:create');
  const [t, shell, nav, dates] = await Promise.all([getTranslations('NewCard'), getTranslations('Shell'), getTranslations('Nav'), dateSettingsOf(session)]);
  const { policy, timeZone } = await getBusinessExpiry(getDb(), session.businessId);
  const expiresAt = cardExpiresAt(policy, new Date(), timeZone);
  const rule =
    policy.kind === 'never'
      ? t('neverExpire')
      : policy.kind === 'after_issue'
        ? t('expireAfterIssue', { months: policy.months })
        : t('expireAfterLoad', { months: policy.months });
  return (
    <div className="mx-auto max-w-xl">
      <PageHeader
        back={{ href: '/cards', label: nav('pages.cards') }}
        title={t('title')}
        description={t('description', { mode: shell(`modes.${session.mode}`) })}
      />
      <Panel>
        <p className="mb-4 rounded-lg bg-slate-50 p-3 text-sm text-slate-700" data-testid="expiry-before-create">
          {rule}
          {expiresAt ? ` ${t('usableUntil', { day: formatDay(expiresAt, { ...dates, timeZone }) })}` : ''}
        </p>
        <CreateCardFormView />
      </Panel>
    </div>
  );
}
