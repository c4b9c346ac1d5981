import { LimitsForm } from '@/components/settings/limits-form';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { getDb } from '@/lib/db/client';
import { getLimits } from '@/lib/limits/business-limits';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Settings · Gift cards' };

export default async function SettingsPage() {
  const session = await requirePage('settings');
  const limits = await getLimits(getDb(), session.businessId, session.mode);
  return (
    <>
      <PageHeader
        title="Settings"
        description={`Limits for ${session.mode} mode, per currency, in currency units. Leave a field empty for no limit. The API and this dashboard refuse what would pass a limit with “Limit exceeded”.`}
      />
      <div className="space-y-4">
        {limits.map((l) => (
          <Panel key={l.currency} title={`${l.currency} limits`}>
            <LimitsForm limits={l} mode={session.mode} />
          </Panel>
        ))}
      </div>
    </>
  );
}
