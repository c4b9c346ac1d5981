import { liveKeys } from '@/components/payouts-list/list-items';
import { Prefetched } from '@/components/providers/prefetched';
import { ApiKeysPanel } from '@/components/developers/api-keys-panel';
import { LiveDeliveryLog } from '@/components/developers/live-delivery-log';
import { ReplayFailedForm } from '@/components/developers/replay-buttons';
import { WebhookEndpointPanel } from '@/components/developers/webhook-endpoint-panel';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { requirePage } from '@/server/session';
import { getWebhookEndpoint } from '@/lib/dashboard/get-webhook-endpoint';
import { listDeliveryLog } from '@/lib/dashboard/list-delivery-log';
import { zoneLabel } from '@/lib/time-zone';
import { getDb } from '@/lib/db/client';
import { listApiKeys } from '@/lib/keys/list-api-keys';

export const metadata = { title: 'Developers · Gift cards' };

const PAGE_SIZE = 20;

export default async function DevelopersPage({ searchParams }: { searchParams: Promise<{ page?: string }> }) {
  const session = await requirePage('developers');
  const raw = Number((await searchParams).page ?? 1);
  const page = Number.isSafeInteger(raw) && raw >= 1 && raw <= 500 ? raw : 1;
  const db = getDb();
  const [keys, endpoint, log] = await Promise.all([
    listApiKeys(db, session.businessId, session.mode),
    getWebhookEndpoint(db, session.businessId, session.mode),
    listDeliveryLog(db, { businessId: session.businessId, mode: session.mode, page, limit: PAGE_SIZE }),
  ]);
  return (
    <>
      <PageHeader title="Developers" description={`API keys, webhook endpoint and deliveries of ${session.mode} mode.`} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel title="API keys">
          <ApiKeysPanel keys={keys} mode={session.mode} />
        </Panel>
        <Panel title="Webhook endpoint">
          <WebhookEndpointPanel endpoint={endpoint} mode={session.mode} />
        </Panel>
      </div>
      <div className="mt-4 space-y-4">
        <Panel title="Delivery log">
          <Prefetched entries={[[liveKeys.deliveryLog(page), log]]}>
            <LiveDeliveryLog page={page} hasEndpoint={!!endpoint} />
          </Prefetched>
        </Panel>
        <Panel title="Replay failed events">
          <p className="mb-3 text-sm text-slate-600">
            Sends again every delivery that failed for good among the events created in the period, in {zoneLabel(session.timeZone)}.
          </p>
          <ReplayFailedForm timeZone={session.timeZone} />
        </Panel>
      </div>
    </>
  );
}
