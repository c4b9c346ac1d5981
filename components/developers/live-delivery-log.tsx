'use client';

import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { fetchJson } from '@/components/payouts-list/fetch-json';
import { liveKeys } from '@/components/payouts-list/list-items';
import { LinkButton } from '@/components/ui/link-button';
import { EmptyState } from '@/components/ui/page-header';
import type { DeliveryLogEntry } from '@/lib/dashboard/list-delivery-log';
import { DeliveryLogTable } from './delivery-log-table';

export interface DeliveryLogPage {
  items: DeliveryLogEntry[];
  hasNext: boolean;
}

/** While a delivery is on its way its attempts change without an event of their own: the log reads itself again every 2 s until none is pending. */
const PENDING_POLL_MS = 2_000;

/**
 * The delivery log through TanStack Query: the live stream invalidates it when
 * an event goes out, a replay invalidates it, and it follows pending deliveries
 * by itself, so it never needs a reload.
 */
export function LiveDeliveryLog({ page, hasEndpoint }: { page: number; hasEndpoint: boolean }) {
  const t = useTranslations('DevelopersLog');
  const { data } = useQuery({
    queryKey: liveKeys.deliveryLog(page),
    queryFn: () => fetchJson<DeliveryLogPage>(`/api/dashboard/deliveries?page=${page}`),
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.state === 'pending') ? PENDING_POLL_MS : false),
  });
  if (!data) return null;
  return (
    <>
      {data.items.length === 0 ? (
        <EmptyState title={page > 1 ? t('noMore') : t('noneYet')}>{hasEndpoint ? t('emptyWithEndpoint') : t('emptyNoEndpoint')}</EmptyState>
      ) : (
        <DeliveryLogTable items={data.items} />
      )}
      {(page > 1 || data.hasNext) && (
        <nav aria-label={t('pages')} className="mt-4 flex justify-between gap-2">
          {page > 1 ? (
            <LinkButton variant="secondary" rel="prev" href={page === 2 ? '/developers' : `/developers?page=${page - 1}`}>
              ← {t('newer')}
            </LinkButton>
          ) : (
            <span />
          )}
          {data.hasNext ? (
            <LinkButton variant="secondary" rel="next" href={`/developers?page=${page + 1}`}>
              {t('older')} →
            </LinkButton>
          ) : (
            <span />
          )}
        </nav>
      )}
    </>
  );
}
