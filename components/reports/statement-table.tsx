import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import { formatMoney } from '@/components/ui/money';
import { EmptyState } from '@/components/ui/page-header';
import { TableHead } from '@/components/ui/table-head';
import { Pager } from '@/components/ui/pager';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import type { StatementLine, StatementPage } from '@/lib/reports/business-statement';

const linkClass = 'font-mono text-emerald-800 underline underline-offset-2 hover:text-emerald-950 focus-visible:outline-2 focus-visible:outline-emerald-700';

/** The reference links to this business's own payout or payment; a card number to its card. A B2B payout received belongs to the payer: shown, not linked. */
function Reference({ line }: { line: StatementLine }) {
  if (!line.reference) return <span className="text-slate-600">—</span>;
  if (line.kind === 'card_swept') {
    return (
      <Link href={`/cards/${line.reference}`} className={linkClass}>
        {line.reference}
      </Link>
    );
  }
  const own =
    line.kind === 'topup' || line.kind === 'topup_returned' || line.kind === 'payout_refund' ? 'payouts' : line.kind === 'payment' ? 'payments' : null;
  return own ? (
    <Link href={`/${own}/${line.reference}`} className={linkClass}>
      {line.reference}
    </Link>
  ) : (
    <span className="font-mono">{line.reference}</span>
  );
}

/** One page of the statement, oldest first: each movement with its amount in or out and the account's balance after it. */
export function StatementTable({
  page,
  currency,
  formatTime,
  pageHref,
  filtered,
}: {
  page: StatementPage;
  currency: string;
  formatTime: (at: Date) => string;
  pageHref: (cursor: { after?: number; before?: number }) => string;
  filtered: boolean;
}) {
  const t = useTranslations('Statement');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const money = (minor: number) => formatMoney(minor, currency, locale);
  // The core describes a line in English; another language says it from the line's kind and counterpart.
  const lineText = (l: StatementLine) =>
    locale === 'en' ? l.description : t(`lines.${l.kind}`, { card: l.cardNumber ?? '—', payer: l.payerName ?? '—', kind: l.ledgerKind.replaceAll('_', ' ') });
  if (page.lines.length === 0) {
    return <EmptyState title={t('emptyTitle')}>{filtered ? t('emptyFiltered') : t('empty')}</EmptyState>;
  }
  return (
    <>
      <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <table className="w-full text-sm" data-testid="statement-table">
          <caption className="sr-only">{t('caption')}</caption>
          <TableHead
            variant="stacking"
            columns={[
              t('dateTime'),
              t('description'),
              t('reference'),
              { label: t('in'), numeric: true },
              { label: t('out'), numeric: true },
              { label: t('balanceAfter'), numeric: true },
            ]}
          />
          <tbody className="divide-y divide-slate-100">
            {page.lines.map((l) => (
              <tr key={l.entryId} className="grid grid-cols-2 gap-x-3 gap-y-1 px-4 py-3 md:table-row md:p-0" data-testid={`line-${l.entryId}`}>
                <td className="col-span-2 text-xs text-slate-700 md:col-span-1 md:whitespace-nowrap md:px-4 md:py-3 md:text-sm">{formatTime(l.at)}</td>
                <td className="col-span-2 md:col-span-1 md:px-4 md:py-3" data-testid="description">
                  {lineText(l)}
                  {l.fee !== 0 && (
                    <span className="block text-xs text-slate-600">
                      {l.fee > 0 ? t('feeCharged') : t('feeReturned')}: {money(Math.abs(l.fee))}
                    </span>
                  )}
                </td>
                <td className="col-span-2 break-all text-xs md:col-span-1 md:px-4 md:py-3">
                  <span className="text-slate-600 md:sr-only">{t('reference')} </span>
                  <Reference line={l} />
                </td>
                {/* At phone width only the side that moved shows, across the block. */}
                <td
                  className={`text-right font-medium text-emerald-800 tabular-nums md:table-cell md:px-4 md:py-3 ${l.amount > 0 ? 'col-span-2 md:col-span-1' : 'hidden'}`}
                  data-testid="in"
                >
                  {l.amount > 0 && (
                    <>
                      <span className="md:sr-only">{t('in')} </span>
                      {money(l.amount)}
                    </>
                  )}
                </td>
                <td
                  className={`text-right font-medium tabular-nums md:table-cell md:px-4 md:py-3 ${l.amount < 0 ? 'col-span-2 md:col-span-1' : 'hidden'}`}
                  data-testid="out"
                >
                  {l.amount < 0 && (
                    <>
                      <span className="md:sr-only">{t('out')} </span>
                      {money(-l.amount)}
                    </>
                  )}
                </td>
                <td className="col-span-2 text-right text-xs text-slate-700 tabular-nums md:col-span-1 md:px-4 md:py-3 md:text-sm" data-testid="balance-after">
                  <span className="md:sr-only">{t('balanceAfter')} </span>
                  {money(l.balanceAfter)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <TimeZoneNote className="mt-2" />
      <Pager
        label={t('pages')}
        prev={page.prev ? { href: pageHref({ before: page.prev }), label: t('earlier') } : null}
        next={page.next ? { href: pageHref({ after: page.next }), label: t('later') } : null}
      />
    </>
  );
}
