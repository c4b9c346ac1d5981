'use client';

import { type QueryKey, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { EmptyState } from '@/components/ui/page-header';
import { RefundedBadge, StatusBadge } from '@/components/ui/status-badge';
import { TableHead } from '@/components/ui/table-head';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import type { ListView } from '@/lib/dashboard/keyset-cursor';
import { isLocale } from '@/lib/i18n/locale';
import { isReversedRange } from '@/lib/time-zone';
import { fetchJson } from './fetch-json';
import type { HistoryRow, ListPage } from './list-items';
import { ListPager } from './list-pager';
import { ListTotals } from './list-totals';

const linkClass = 'font-mono text-emerald-800 underline underline-offset-2 hover:text-emerald-950 focus-visible:outline-2 focus-visible:outline-emerald-700';

export interface HistoryListProps<T extends HistoryRow> {
  /** The page's path and its JSON route under /api/dashboard. */
  kind: 'payouts' | 'payments';
  /** The page's query string ("?status=failed"), which is also the JSON route's. */
  search: string;
  filters: Record<string, string | undefined>;
  /** The order and page size, kept by the pager's links. */
  view: ListView;
  queryKey: QueryKey;
  /** What the totals' net means on this list. */
  totalsHint: string;
  /** The kind's own words, in the reader's language: its empty states, its caption, a count of rows, a row's type, status and refund. */
  words: {
    reversedTitle: string;
    reversed: (from: string, to: string) => string;
    noMatch: string;
    none: string;
    /** What an unfiltered empty list says will appear here. */
    emptyText: string;
    caption: string;
    count: (n: number) => string;
    type: (row: T) => string;
    status: (status: string) => string;
    refunded: (row: T) => string | null;
  };
  /** The two columns particular to the kind (From and To, or Card and Order), and their cells. */
  parties: readonly [string, string];
  partyCells: (row: T) => readonly [ReactNode, ReactNode];
}

/**
 * One page of payouts or payments, read through TanStack Query: the server's
 * first answer is hydrated into the query (Prefetched), and the live stream
 * invalidates it when one of this business and mode is created or settles.
 */
export function HistoryList<T extends HistoryRow>({ kind, search, filters, view, queryKey, totalsHint, words, parties, partyCells }: HistoryListProps<T>) {
  const t = useTranslations('Payouts');
  const asked = useLocale();
  const money = (minor: number, currency: string) => formatMoney(minor, currency, isLocale(asked) ? asked : 'en');
  const { data } = useQuery({ queryKey, queryFn: () => fetchJson<ListPage<T>>(`/api/dashboard/${kind}${search}`) });
  // The page hydrates this query, so there is data from the first paint.
  if (!data) return null;
  const filtered = Object.values(filters).some(Boolean);
  if (data.rows.length === 0 && isReversedRange(filters)) {
    return <EmptyState title={words.reversedTitle}>{words.reversed(filters.from ?? '', filters.to ?? '')}</EmptyState>;
  }
  if (data.rows.length === 0) {
    return <EmptyState title={filtered ? words.noMatch : words.none}>{filtered ? t('list.clearOrWiden') : words.emptyText}</EmptyState>;
  }
  const one = kind.slice(0, -1);
  return (
    <>
      {data.totals && <ListTotals totals={data.totals} count={words.count} hint={totalsHint} />}
      <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <table className="w-full text-sm" data-testid={`${kind}-table`}>
          <caption className="sr-only">{words.caption}</caption>
          <TableHead
            variant="stacking"
            columns={[
              t('list.reference'),
              t('list.type'),
              { label: t('list.amount'), numeric: true },
              t('list.status'),
              { label: t('list.fee'), numeric: true },
              ...parties,
              t('list.created'),
            ]}
          />
          <tbody className="divide-y divide-slate-100">
            {data.rows.map((p) => (
              <tr key={p.reference} className="grid grid-cols-2 gap-x-3 gap-y-1 px-4 py-3 md:table-row md:p-0" data-testid={`${one}-${p.reference}`}>
                <td className="col-span-2 text-xs md:px-4 md:py-3">
                  <Link href={`/${kind}/${p.reference}`} className={linkClass}>
                    {p.reference}
                  </Link>
                </td>
                <td className="md:px-4 md:py-3">{words.type(p)}</td>
                <td className="text-right font-medium tabular-nums md:px-4 md:py-3" data-testid="amount">
                  {money(p.amount, p.currency)}
                </td>
                <td className="md:px-4 md:py-3" data-testid="status">
                  <StatusBadge status={p.status} label={words.status(p.status)} />
                  {p.refunded && ' '}
                  <RefundedBadge words={words.refunded(p)} />
                  {p.failureReason && (
                    <p className="mt-1 text-xs text-red-800 md:max-w-56" data-testid="failure-reason">
                      {p.failureReason}
                    </p>
                  )}
                </td>
                <td className="text-right text-xs text-slate-700 tabular-nums md:px-4 md:py-3 md:text-sm">
                  <span className="md:sr-only">{t('list.fee')} </span>
                  {money(p.serviceFee, p.currency)}
                </td>
                {partyCells(p).map((cell, i) => (
                  <td key={parties[i]} className="col-span-2 text-xs md:col-span-1 md:px-4 md:py-3">
                    <span className="text-slate-600 md:sr-only">{parties[i]} </span>
                    {cell}
                  </td>
                ))}
                <td className="col-span-2 text-xs text-slate-600 md:px-4 md:py-3">
                  <LocalTime iso={p.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <TimeZoneNote className="mt-2" />
      <ListPager path={`/${kind}`} filters={filters} view={view} prev={data.prev} next={data.next} />
    </>
  );
}
