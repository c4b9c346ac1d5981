import Link from 'next/link';
import { ApiKeysPanel } from '@/components/developers/api-keys-panel';
import { DeliveryLogTable } from '@/components/developers/delivery-log-table';
import { ReplayFailedForm } from '@/components/developers/replay-buttons';
import { WebhookEndpointPanel } from '@/components/developers/webhook-endpoint-panel';
import { EmptyState, PageHeader, Panel } from '@/components/ui/page-header';
import { requirePage } from '@/server/session';
import { getWebhookEndpoint } from '@/lib/dashboard/get-webhook-endpoint';
import { listDeliveryLog } from '@/lib/dashboard/list-delivery-log';
import { getDb } from '@/lib/db/client';
import { listApiKeys } from '@/lib/keys/list-api-keys';

export const metadata = { title: 'Developers · Gift cards' };

const PAGE_SIZE = 20;
const pager =
  'inline-flex min-h-10 items-center rounded-lg px-4 py-2 text-sm font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-700';

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
          {log.items.length === 0 ? (
            <EmptyState title={page > 1 ? 'No more deliveries' : 'No deliveries yet'}>
              {endpoint ? 'Events sent to your endpoint appear here with every attempt.' : 'Set a webhook URL to receive events.'}
            </EmptyState>
          ) : (
            <DeliveryLogTable items={log.items} />
          )}
          {(page > 1 || log.hasNext) && (
            <nav aria-label="Delivery log pages" className="mt-4 flex justify-between gap-2">
              {page > 1 ? (
                <Link className={pager} rel="prev" href={page === 2 ? '/developers' : `/developers?page=${page - 1}`}>
                  ← Newer
                </Link>
              ) : (
                <span />
              )}
              {log.hasNext ? (
                <Link className={pager} rel="next" href={`/developers?page=${page + 1}`}>
                  Older →
                </Link>
              ) : (
                <span />
              )}
            </nav>
          )}
        </Panel>
        <Panel title="Replay failed events">
          <p className="mb-3 text-sm text-slate-600">
            Sends again every delivery that failed for good among the events created in the period (your time zone).
          </p>
          <ReplayFailedForm />
        </Panel>
      </div>
    </>
  );
}
