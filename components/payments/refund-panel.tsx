import { useLocale, useTranslations } from 'next-intl';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { Panel } from '@/components/ui/page-header';
import { StatusBadge } from '@/components/ui/status-badge';
import type { ListedRefund } from '@/lib/refunds/list-refunds';
import type { Refund } from '@/lib/refunds/refund-view';
import { RefundForm } from './refund-form';

interface RefundPanelProps {
  payment: { linkReference: string; status: string; currency: string; amount: number; refundedAmount: number; mode: string };
  refunds: ListedRefund[];
  canRefund: boolean;
}

const STATUS_WORD = { succeeded: 'success', pending: 'pending', failed: 'failed' } as const satisfies Record<Refund['status'], string>;

/** A paid payment's refunds: what was refunded, each refund, and the Refund form for the roles that may refund. */
export function RefundPanel({ payment, refunds, canRefund }: RefundPanelProps) {
  const t = useTranslations('Refunds');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  if (payment.status !== 'success') return null;
  const money = (n: number) => formatMoney(n, payment.currency, locale);
  const refundable = payment.amount - payment.refundedAmount;
  return (
    <div className="mt-4">
      <Panel title={t('title')}>
        <dl className="mb-4 grid grid-cols-2 gap-4">
          <div>
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{t('refundedAmount')}</dt>
            <dd className="mt-1 tabular-nums text-slate-900" data-testid="refunded-amount">
              {money(payment.refundedAmount)}
            </dd>
          </div>
          <div>
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{t('refundable')}</dt>
            <dd className="mt-1 tabular-nums text-slate-900" data-testid="refundable-amount">
              {money(refundable)}
            </dd>
          </div>
        </dl>
        {refunds.length > 0 && (
          <ul className="mb-4 divide-y divide-slate-200 border-y border-slate-200" data-testid="refund-list">
            {refunds.map((r) => (
              <li key={r.id} className="flex flex-col gap-1 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <span className="font-medium tabular-nums text-slate-900">{money(r.amount)}</span>{' '}
                  <StatusBadge status={STATUS_WORD[r.status]} label={t(`statuses.${STATUS_WORD[r.status]}`)} />
                  <span className="block break-all font-mono text-xs text-slate-600">{r.reference}</span>
                  {r.reason && <span className="block text-slate-700">{r.reason}</span>}
                  {r.failureReason && (
                    <span className="block text-red-800">
                      {r.failureReason} {t('wentBack')}
                    </span>
                  )}
                  {r.status === 'pending' && r.lastError && <span className="block text-amber-900">{t('chapa', { error: r.lastError })}</span>}
                  {r.status === 'pending' && r.needsPerson && (
                    <span className="block text-amber-900" data-testid="refund-needs-person">
                      {t('needsPerson')}
                    </span>
                  )}
                </div>
                <span className="shrink-0 text-slate-600">
                  <LocalTime iso={r.createdAt.toISOString()} />
                </span>
              </li>
            ))}
          </ul>
        )}
        {canRefund ? (
          <RefundForm reference={payment.linkReference} currency={payment.currency} refundable={refundable} live={payment.mode === 'live'} />
        ) : (
          refunds.length === 0 && <p className="text-sm text-slate-600">{t('none')}</p>
        )}
      </Panel>
    </div>
  );
}
