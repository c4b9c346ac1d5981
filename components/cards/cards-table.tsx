import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { StatusBadge } from '@/components/ui/status-badge';
import type { CardRow } from '@/lib/cards/card-view';
import { cardStatusLabel } from '@/lib/cards/card-status';
import { TableHead } from '@/components/ui/table-head';

/** A table on wide screens; at phone width each card becomes a stacked block, so nothing scrolls sideways. */
export function CardsTable({ cards }: { cards: CardRow[] }) {
  const t = useTranslations('Cards');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  return (
    <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      <table className="w-full text-sm" data-testid="cards-table">
        <TableHead variant="stacking" columns={[t('card'), t('holder'), t('phone'), { label: t('balance'), numeric: true }, t('status'), t('created')]} />
        <tbody className="divide-y divide-slate-100">
          {cards.map((c) => (
            <tr key={c.id} className="grid grid-cols-2 gap-x-3 gap-y-1 px-4 py-3 md:table-row md:p-0">
              <td className="col-span-2 md:px-4 md:py-3">
                <Link
                  href={`/cards/${c.card_number}`}
                  className="font-mono font-medium text-emerald-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-700"
                >
                  {c.card_number.replace(/(\d{4})(?=\d)/g, '$1 ')}
                </Link>
              </td>
              <td className="md:px-4 md:py-3">{[c.first_name, c.last_name].filter(Boolean).join(' ')}</td>
              <td className="text-right text-slate-700 md:px-4 md:py-3 md:text-left">{c.phone_number}</td>
              <td className="tabular-nums md:px-4 md:py-3 md:text-right">{formatMoney(Number(c.balance), c.currency, locale)}</td>
              <td className="text-right md:px-4 md:py-3 md:text-left">
                <StatusBadge status={cardStatusLabel(c)} label={t(`statuses.${cardStatusLabel(c)}`)} />
              </td>
              <td className="col-span-2 text-xs text-slate-600 md:px-4 md:py-3 md:text-sm">
                <LocalTime iso={new Date(c.created_at).toISOString()} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
