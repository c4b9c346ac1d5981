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
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" data-testid="till-report">
        <TableHead
          variant="scrolling"
          columns={[
            t('cashier'),
            t('branch'),
            { label: t('count'), numeric: true },
            { label: t('total'), numeric: true },
            { label: t('voids'), numeric: true },
          ]}
        />
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={`${r.user_id}-${r.location_id}-${r.currency}`}>
              <td className="px-3 py-2">{r.email ?? t('apiOrSystem')}</td>
              <td className="px-3 py-2">{r.location_id === null ? t('noBranch') : (branches.get(r.location_id) ?? `#${r.location_id}`)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{r.count}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatMoney(r.total, r.currency, locale)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{r.voids}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
