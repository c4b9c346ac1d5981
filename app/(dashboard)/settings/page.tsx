import { ExpiryPolicyForm } from '@/components/settings/expiry-policy-form';
import { FeeSchedule } from '@/components/settings/fee-schedule';
import { LimitsForm } from '@/components/settings/limits-form';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { getDb } from '@/lib/db/client';
import { getBusinessExpiry } from '@/lib/business/expiry-policy';
import { getLimits } from '@/lib/limits/business-limits';
import { getFeeSchedule } from '@/lib/fees/fee-schedule';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Settings · Gift cards' };

export default async function SettingsPage() {
  const session = await requirePage('settings');
  const [limits, expiry, fees] = await Promise.all([
    getLimits(getDb(), session.businessId, session.mode),
    getBusinessExpiry(getDb(), session.businessId),
    getFeeSchedule(getDb(), session.businessId, session.mode),
  ]);
  return (
    <>
      <PageHeader
        title="Settings"
        description={`When cards expire, and the limits for ${session.mode} mode, per currency, in currency units. Leave a limit empty for no limit. The API and this dashboard refuse what would pass a limit with “Limit exceeded”.`}
      />
      <div className="space-y-4">
        <Panel title="Card expiry">
          <p className="-mt-2 mb-3 text-sm text-slate-600">
            For test and live cards alike. Some jurisdictions forbid gift cards that expire, or set a minimum term: check yours before choosing one. A change
            applies to cards issued or loaded from then on; cards already out keep the date they show. At expiry a card’s balance becomes breakage and the card
            is read-only.
          </p>
          <ExpiryPolicyForm policy={expiry.policy} />
        </Panel>
        <Panel title={`Service fees in ${session.mode} mode`}>
          <FeeSchedule rules={fees} mode={session.mode} />
        </Panel>
        {limits.map((l) => (
          <Panel key={l.currency} title={`${l.currency} limits`}>
            <LimitsForm limits={l} mode={session.mode} />
          </Panel>
        ))}
      </div>
    </>
  );
}
