import { CreateCardFormView } from '@/components/cards/create-card-form';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { requirePage } from '@/server/session';

export const metadata = { title: 'New card · Gift cards' };

export default async function NewCardPage() {
  const session = await requirePage('cards:create');
  return (
    <div className="mx-auto max-w-xl">
      <PageHeader
        back={{ href: '/cards', label: 'Cards' }}
        title="New card"
        description={`Issue a gift card in ${session.mode} mode. One card per customer and currency.`}
      />
      <Panel>
        <CreateCardFormView />
      </Panel>
    </div>
  );
}
