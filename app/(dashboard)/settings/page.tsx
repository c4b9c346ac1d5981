import { getTranslations } from 'next-intl/server';
import { CustomerLocaleForm } from '@/components/settings/customer-locale-form';
import { ExpiryPolicyForm } from '@/components/settings/expiry-policy-form';
import { FeeSchedule } from '@/components/settings/fee-schedule';
import { LimitsForm } from '@/components/settings/limits-form';
import { MessageKindsForm } from '@/components/settings/message-kinds-form';
import { BranchesForm } from '@/components/locations/branches-form';
import { listLocations } from '@/lib/locations/locations';
import { ShopSettingsForm } from '@/components/shop/shop-settings-form';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { can } from '@/lib/auth/permissions';
import { getDb } from '@/lib/db/client';
import { getBusinessExpiry } from '@/lib/business/expiry-policy';
import { getBusinessLocale } from '@/lib/business/business-locale';
import { getLimits } from '@/lib/limits/business-limits';
import { getFeeSchedule } from '@/lib/fees/fee-schedule';
import { messageKindSettings } from '@/lib/messages/message-kind-settings';
import { getShop, shopBusinessName } from '@/lib/shop/shop-settings';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('Settings');
  return { title: t('metaTitle') };
}

export default async function SettingsPage() {
  const session = await requirePage('settings');
  const [t, shell] = await Promise.all([getTranslations('Settings'), getTranslations('Shell')]);
  const tBranches = await getTranslations('Locations');
  const shopT = await getTranslations('ShopSettings');
  const [shop, businessName] = await Promise.all([getShop(getDb(), session.businessId), shopBusinessName(getDb(), session.businessId)]);
  const [limits, expiry, fees, locale, kinds, branches] = await Promise.all([
    getLimits(getDb(), session.businessId, session.mode),
    getBusinessExpiry(getDb(), session.businessId),
    getFeeSchedule(getDb(), session.businessId, session.mode),
    getBusinessLocale(getDb(), session.businessId),
    messageKindSettings(getDb(), session.businessId),
    listLocations(getDb(), session.businessId),
  ]);
  const mode = shell(`modes.${session.mode}`);
  return (
    <>
      <PageHeader title={t('title')} description={t('description', { mode })} />
      <div className="space-y-4">
        {can(session.role, 'team') && (
          <Panel title={t('customerLocaleTitle')}>
            <p className="-mt-2 mb-3 text-sm text-slate-600">{t('customerLocaleIntro')}</p>
            <CustomerLocaleForm value={{ customer_language: locale.customer_language, calendar: locale.calendar }} />
          </Panel>
        )}
        {can(session.role, 'team') && (
          <Panel title={t('messageKindsTitle')}>
            <p className="-mt-2 mb-3 text-sm text-slate-600">{t('messageKindsIntro')}</p>
            <MessageKindsForm kinds={kinds} language={locale.customer_language} />
          </Panel>
        )}
        {can(session.role, 'team') && (
          <Panel title={tBranches('title')}>
            <p className="-mt-2 mb-3 text-sm text-slate-600">{tBranches('intro')}</p>
            <BranchesForm branches={branches} />
          </Panel>
        )}
        <Panel title={t('expiryTitle')}>
          <p className="-mt-2 mb-3 text-sm text-slate-600">{t('expiryIntro')}</p>
          <ExpiryPolicyForm policy={expiry.policy} />
        </Panel>
        <Panel title={t('feesTitle', { mode })}>
          <FeeSchedule rules={fees} mode={session.mode} />
        </Panel>
        <Panel title={shopT('title')}>
          <p className="-mt-2 mb-3 text-sm text-slate-600">{shopT('intro')}</p>
          <ShopSettingsForm shop={shop} businessName={businessName} mode={session.mode} />
        </Panel>
        {limits.map((l) => (
          <Panel key={l.currency} title={t('limitsTitle', { currency: l.currency })}>
            <LimitsForm limits={l} mode={session.mode} />
          </Panel>
        ))}
      </div>
    </>
  );
}
