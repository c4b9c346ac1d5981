'use client';

import { useTranslations } from 'next-intl';
import type { ListView } from '@/lib/dashboard/keyset-cursor';
import { HistoryList } from './history-list';
import { liveKeys, type PayoutItem } from './list-items';

/** The payouts of one page and their totals; the live stream invalidates them when a payout is created or settles. */
export function PayoutsList({ search, filters, view }: { search: string; filters: Record<string, string | undefined>; view: ListView }) {
  const t = useTranslations('Payouts');
  return (
    <HistoryList<PayoutItem>
      kind="payouts"
      search={search}
      filters={filters}
      view={view}
      queryKey={liveKeys.payoutList(search)}
      totalsHint={t('list.netHint')}
      words={{
        reversedTitle: t('list.reversedTitle'),
        reversed: (from, to) => t('list.reversed', { from, to }),
        noMatch: t('list.noMatch'),
        none: t('list.none'),
        emptyText: t('list.emptyText'),
        caption: t('title'),
        count: (count) => t('list.count', { count }),
        type: (p) => (t.has(`types.${p.typeKey}`) ? t(`types.${p.typeKey}`) : p.type),
        status: (s) => (t.has(`statuses.${s}`) ? t(`statuses.${s}`) : s),
        refunded: () => null,
      }}
      parties={[t('list.partyFrom'), t('list.partyTo')]}
      partyCells={(p) => [
        <span key="from" className={p.sourceCard ? 'font-mono' : ''}>
          {p.sourceCard ?? t('list.businessBalance')}
        </span>,
        p.destinationCard ? t('detail.cardNumber', { number: p.destinationCard }) : p.destination,
      ]}
    />
  );
}
