import { getTranslations } from 'next-intl/server';
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

export async function generateMetadata() {
  const t = await getTranslations('Developers');
  return { title: t('metaTitle') };
}

const PAGE_SIZE = 20;

export default async function DevelopersPage({ searchParams }: { searchParams: Promise<{ page?: string }> }) {
  const session = await requirePage('developers');
  const raw = Number((await searchParams).page ?? 1);
  const page = Number.isSafeInteger(raw) && raw >= 1 && raw <= 500 ? raw : 1;
  const db = getDb();
  const [t, tShell] = await Promise.all([getTranslations('Developers'), getTranslations('Shell')]);
  const [keys, endpoint, log] = await Promise.all([
    listApiKeys(db, session.businessId, session.mode),
    getWebhookEndpoint(db, session.businessId, session.mode),
    listDeliveryLog(db, { businessId: session.businessId, mode: session.mode, page, limit: PAGE_SIZE }),
  ]);
  return (
    <>
      <PageHeader title={t('title')} description={t('intro', { mode: tShell(`modes.${session.mode}`) })} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel title={t('apiKeys')}>
          <ApiKeysPanel keys={keys} mode={session.mode} />
        </Panel>
        <Panel title={t('webhookEndpoint')}>
          <WebhookEndpointPanel endpoint={endpoint} mode={session.mode} />
        </Panel>
      </div>
      <div className="mt-4 space-y-4">
        <Panel title={t('deliveryLog')}>
          <Prefetched entries={[[liveKeys.deliveryLog(page), log]]}>
            <LiveDeliveryLog page={page} hasEndpoint={!!endpoint} />
          </Prefetched>
        </Panel>
        <Panel title={t('replayFailed')}>
          <p className="mb-3 text-sm text-slate-600">{t('replayIntro', { zone: zoneLabel(session.timeZone) })}</p>
          <ReplayFailedForm timeZone={session.timeZone} />
        </Panel>
      </div>
    </>
  );
}
