'use client';

import { useTranslations } from 'next-intl';
import type { ListView } from '@/lib/dashboard/keyset-cursor';
import { HistoryList } from './history-list';
import { liveKeys, type PaymentItem } from './list-items';

/** The payments of one page and their totals; the live stream invalidates them when a payment is created or settles. */
export function PaymentsList({ search, filters, view }: { search: string; filters: Record<string, string | undefined>; view: ListView }) {
  const t = useTranslations('Payments');
  return (
    <HistoryList<PaymentItem>
      kind="payments"
      search={search}
      filters={filters}
      view={view}
      queryKey={liveKeys.paymentList(search)}
      totalsHint={t('list.netHint')}
      words={{
        reversedTitle: t('list.reversedTitle'),
        reversed: (from, to) => t('list.reversed', { from, to }),
        noMatch: t('list.noMatch'),
        none: t('list.none'),
        emptyText: t('list.emptyText'),
        caption: t('title'),
        count: (count) => t('list.count', { count }),
        type: (p) => (t.has(`types.${p.typeKey}`) ? t(`types.${p.typeKey}`, { wallet: p.wallet ?? '' }) : p.type),
        status: (s) => (t.has(`statuses.${s}`) ? t(`statuses.${s}`) : s),
        refunded: (p) => (p.refundedKey === 'refunded' ? t('refunded') : p.refundedKey === 'partlyRefunded' ? t('partlyRefunded') : null),
      }}
      parties={[t('list.card'), t('list.order')]}
      partyCells={(p) => [
        <span key="card" className="font-mono">
          {p.cardNumber ?? '—'}
        </span>,
        p.orderReference ?? '—',
      ]}
    />
  );
}
