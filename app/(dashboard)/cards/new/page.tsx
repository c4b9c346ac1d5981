import { CreateCardFormView } from '@/components/cards/create-card-form';
import { expiryDay } from '@/components/cards/expiry-day';
import { getBusinessExpiry } from '@/lib/business/expiry-policy';
import { cardExpiresAt, describeExpiryPolicy } from '@/lib/cards/card-expiry';
import { getDb } from '@/lib/db/client';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { requirePage } from '@/server/session';

export const metadata = { title: 'New card · Gift cards' };

export default async function NewCardPage() {
  const session = await requirePage('cards:create');
  const { policy, timeZone } = await getBusinessExpiry(getDb(), session.businessId);
  const expiresAt = cardExpiresAt(policy, new Date(), timeZone);
  return (
    <div className="mx-auto max-w-xl">
      <PageHeader
        back={{ href: '/cards', label: 'Cards' }}
        title="New card"
        description={`Issue a gift card in ${session.mode} mode. One card per customer and currency.`}
      />
      <Panel>
        <p className="mb-4 rounded-lg bg-slate-50 p-3 text-sm text-slate-700" data-testid="expiry-before-create">
          {describeExpiryPolicy(policy)}.{expiresAt ? ` A card issued now can be used until the end of ${expiryDay(expiresAt, timeZone)}.` : ''}
        </p>
        <CreateCardFormView />
      </Panel>
    </div>
  );
}
