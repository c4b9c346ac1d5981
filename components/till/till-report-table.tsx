import { getLocale, getTranslations } from 'next-intl/server';
import { formatMoney } from '@/components/ui/money';
import { TableHead } from '@/components/ui/table-head';
import type { TillReportRow } from '@/lib/dashboard/till';
import { isLocale } from '@/lib/i18n/locale';

/** A day's till figures: one row per person, branch and currency. */
export async function TillReportTable({ rows, branches }: { rows: TillReportRow[]; branches: Map<number, string> }) {
  const t = await getTranslations('Till.report');
  const asked = await getLocale();
  const locale = isLocale(asked) ? asked : 'en';
  if (rows.length === 0) return <p className="text-sm text-slate-600">{t('empty')}</p>;
  return (
    <table className="w-full text-sm" data-testid="till-report">
      <TableHead
        variant="stacking"
        columns={[t('cashier'), t('branch'), { label: t('count'), numeric: true }, { label: t('total'), numeric: true }, { label: t('voids'), numeric: true }]}
      />
      <tbody className="divide-y divide-slate-100">
        {rows.map((r) => (
          // At phone width a row is a block: who and where, then the figures, each named.
          <tr key={`${r.user_id}-${r.location_id}-${r.currency}`} className="grid grid-cols-3 gap-x-3 gap-y-1 py-3 md:table-row md:py-0">
            <td className="col-span-3 break-all font-medium md:col-span-1 md:px-3 md:py-2 md:font-normal">{r.email ?? t('apiOrSystem')}</td>
            <td className="col-span-3 text-slate-700 md:col-span-1 md:px-3 md:py-2 md:text-slate-900">
              {r.location_id === null ? t('noBranch') : (branches.get(r.location_id) ?? `#${r.location_id}`)}
            </td>
            <td className="tabular-nums md:px-3 md:py-2 md:text-right">
              <span className="text-xs text-slate-600 md:sr-only">{t('count')} </span>
              {r.count}
            </td>
            <td className="tabular-nums md:px-3 md:py-2 md:text-right">
              <span className="text-xs text-slate-600 md:sr-only">{t('total')} </span>
              {formatMoney(r.total, r.currency, locale)}
            </td>
            <td className="tabular-nums md:px-3 md:py-2 md:text-right">
              <span className="text-xs text-slate-600 md:sr-only">{t('voids')} </span>
              {r.voids}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
