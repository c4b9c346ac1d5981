import Link from 'next/link';
import type { ReactNode } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import type { LedgerTrailEntry } from '@/lib/dashboard/ledger-trail';
import { isLocale } from '@/lib/i18n/locale';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { RefundedBadge, StatusBadge } from '@/components/ui/status-badge';
import { DetailField } from './detail-field';
import { LedgerTrailTable } from './ledger-trail-table';

/** What one payment's or payout's page shows: the descriptor each kind fills in, drawn by HistoryDetailPage. */
export interface HistoryDetail {
  back: { href: string; label: string };
  title: string;
  reference: string;
  status: string;
  /** The status in the reader's words. */
  statusLabel?: string;
  statusTestId: string;
  /** Beside the status: what happened since (a paid payment refunded in full or in part). */
  statusNote?: string | null;
  /** Why it failed or was cancelled, and what that meant for the money. */
  failure?: { heading: string; reason: string | null; consequence: string };
  /** What happens next while it is pending, when there is something to say. */
  next?: ReactNode;
  /** The Money panel: the amount and the fee, then the kind's own lines (DetailField elements). */
  money: { amount: number; fee: number; currency: string; amountTestId: string; fields: ReactNode };
  /** The panels after Money, each with its fields. */
  panels: { title: string; fields: ReactNode }[];
  /** More panels in the same grid, after the fields' panels (a provider's own view). */
  more?: ReactNode;
  /** Below the panels, above the ledger: what staff can do next (a payment's refunds). */
  actions?: ReactNode;
  trail: LedgerTrailEntry[];
}

/** A payment's or payout's page: title and status, why it failed, its panels, then its ledger transactions. */
export function HistoryDetailPage({ detail }: { detail: HistoryDetail }) {
  const t = useTranslations('Payouts');
  const asked = useLocale();
  const money = (minor: number) => formatMoney(minor, detail.money.currency, isLocale(asked) ? asked : 'en');
  return (
    <>
      <PageHeader
        back={detail.back}
        title={detail.title}
        description={detail.reference}
        actions={
          <span className="flex flex-wrap items-center gap-2">
            <span data-testid={detail.statusTestId}>
              <StatusBadge status={detail.status} label={detail.statusLabel} />
            </span>
            <RefundedBadge words={detail.statusNote} />
          </span>
        }
      />
      {detail.failure && (
        <div className="mb-4">
          <Notice tone="error" testId="failure-reason">
            <span className="font-semibold">{detail.failure.heading}: </span>
            {detail.failure.reason ?? t('detail.noReason')} {detail.failure.consequence}
          </Notice>
        </div>
      )}
      {detail.next && (
        <div className="mb-4">
          <Notice tone="info" testId="next-action">
            <span className="font-semibold">{t('detail.next')} </span>
            <span className="[overflow-wrap:anywhere]">{detail.next}</span>
          </Notice>
        </div>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <Panel title={t('detail.money')}>
          <dl className="grid grid-cols-2 gap-4">
            <DetailField label={t('detail.amount')} testId={detail.money.amountTestId}>
              {money(detail.money.amount)}
            </DetailField>
            <DetailField label={t('detail.serviceFee')}>{money(detail.money.fee)}</DetailField>
            {detail.money.fields}
          </dl>
        </Panel>
        {detail.panels.map((panel) => (
          <Panel key={panel.title} title={panel.title}>
            <dl className="grid grid-cols-2 gap-4">{panel.fields}</dl>
          </Panel>
        ))}
        {detail.more}
      </div>
      {detail.actions}
      <div className="mt-4">
        <Panel title={t('detail.ledger')}>
          <LedgerTrailTable entries={detail.trail} />
        </Panel>
      </div>
    </>
  );
}

/** A card's number linking to its page. */
export function CardLink({ number }: { number: string }) {
  return (
    <Link href={`/cards/${number}`} className="font-mono text-emerald-800 underline underline-offset-2">
      {number}
    </Link>
  );
}
