import { useTranslations } from 'next-intl';
import { unitsText } from '@/lib/money-text';
import type { FeeKind } from '@/lib/fees/fee-schedule';
import { EmptyState } from '@/components/ui/page-header';

export interface FeeScheduleRow {
  kind: FeeKind;
  percent: string;
  fixed: number;
  min: number | null;
  max: number | null;
}

/** The service fees the provider set for this business and mode: read-only here, changed by the back office. */
export function FeeSchedule({ rules, mode }: { rules: FeeScheduleRow[]; mode: string }) {
  const t = useTranslations('Settings');
  const shell = useTranslations('Shell');
  if (rules.length === 0) return <EmptyState title={t('fees.noneTitle')}>{t('fees.none', { mode: shell(`modes.${mode}`) })}</EmptyState>;
  // "1.5% + 2.00, at least 1.00, at most 50.00": amounts in the currency of the payment or payout the fee is on.
  const terms = (r: FeeScheduleRow) => {
    const parts = [r.percent !== '0' || r.fixed === 0 ? `${r.percent}%` : '', r.fixed ? unitsText(r.fixed) : ''].filter(Boolean).join(' + ');
    const bounds = [
      r.min !== null ? t('fees.atLeast', { amount: unitsText(r.min) }) : '',
      r.max !== null ? t('fees.atMost', { amount: unitsText(r.max) }) : '',
    ].filter(Boolean);
    return [parts, ...bounds].join(t('fees.separator'));
  };
  return (
    <>
      <table className="w-full text-sm" data-testid="fee-schedule">
        <thead>
          <tr className="text-left text-slate-600">
            <th scope="col" className="py-1 pr-3 font-medium">
              {t('fees.on')}
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              {t('fees.fee')}
            </th>
            <th scope="col" className="py-1 font-medium">
              {t('fees.whoPays')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rules.map((r) => (
            <tr key={r.kind} className="border-t border-slate-100 align-top" data-testid={`fee-${r.kind}`}>
              <td className="py-2 pr-3 font-medium text-slate-900">{t(`fees.kinds.${r.kind}`)}</td>
              <td className="py-2 pr-3 tabular-nums">{terms(r)}</td>
              {/* Every payout type in the same words as the payout form and page: sender pays or recipient pays. */}
              <td className="py-2 text-slate-700">{t(`fees.payers.${r.kind}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-slate-600">{t('fees.note')}</p>
    </>
  );
}
