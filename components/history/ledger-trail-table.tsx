import { useLocale, useTranslations } from 'next-intl';
import { isLocale } from '@/lib/i18n/locale';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { EmptyState } from '@/components/ui/page-header';
import type { LedgerTrailEntry } from '@/lib/dashboard/ledger-trail';
import { TableHead } from '@/components/ui/table-head';

/** The core's names of the provider's and clearing accounts, as catalogue keys under Payouts.ledgerAccounts. */
const ACCOUNT_KEYS: Record<string, string> = {
  'Service fee (provider)': 'feeRevenue',
  'Bank clearing': 'bankClearing',
  'Wallet clearing': 'walletClearing',
  'Checkout clearing': 'checkoutClearing',
  'Deposits clearing': 'depositsClearing',
  'Checkout refunds clearing': 'checkoutRefundsClearing',
  'Wallet refunds clearing': 'walletRefundsClearing',
};

/** Every ledger entry written under a reference: which account moved by how much, and its balance after. */
export function LedgerTrailTable({ entries }: { entries: LedgerTrailEntry[] }) {
  const t = useTranslations('Payouts');
  const asked = useLocale();
  const money = (minor: number, currency: string) => formatMoney(minor, currency, isLocale(asked) ? asked : 'en');
  // A ledger transaction's kind in words; an unknown one is only "Money moved", never its code.
  // An account in the reader's words: the business's card by its number, its balance, a clearing account; another business's as the core names it.
  const accountWords = (account: string) => {
    const card = /^Card (\d+)$/.exec(account);
    if (card) return t('detail.cardNumber', { number: card[1] });
    if (account === 'Business balance') return t('list.businessBalance');
    const key = ACCOUNT_KEYS[account];
    return key ? t(`ledgerAccounts.${key}`) : account;
  };
  // Who wrote the entry: an email stays as it is; the core's fixed names are said in the reader's words.
  const ACTORS: Record<string, string> = { 'API key': 'apiKey', 'Provider back office': 'admin', 'the service': 'system' };
  const actorWords = (actor: string) => (ACTORS[actor] ? t(`ledgerActors.${ACTORS[actor]}`) : actor);
  const kindWords = (kind: string) => (t.has(`ledgerKinds.${kind}`) ? t(`ledgerKinds.${kind}`) : t('ledgerKinds.other'));
  if (entries.length === 0) return <EmptyState title={t('detail.noMoneyMoved')} />;
  return (
    <div className="overflow-hidden rounded-xl bg-white ring-1 ring-slate-200">
      <table className="w-full text-sm" data-testid="ledger-trail">
        <caption className="sr-only">{t('detail.ledger')}</caption>
        <TableHead
          variant="stacking"
          columns={[
            t('detail.transaction'),
            t('detail.account'),
            { label: t('detail.amount'), numeric: true },
            { label: t('detail.balanceAfter'), numeric: true },
            t('detail.whenBy'),
          ]}
        />
        <tbody className="divide-y divide-slate-100">
          {entries.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a transaction's entries have no id of their own; their order within it is fixed
            <tr key={`${e.transactionId}-${i}`} className="grid grid-cols-2 gap-x-3 gap-y-1 px-4 py-3 md:table-row md:p-0">
              <td className="order-1 text-xs md:px-3 md:py-2">
                #{e.transactionId} · {kindWords(e.kind)}
              </td>
              <td className="order-3 col-span-2 text-xs md:col-span-1 md:px-3 md:py-2">{accountWords(e.account)}</td>
              <td className={`order-2 text-right tabular-nums md:px-3 md:py-2 ${e.amount < 0 ? 'text-red-800' : 'text-emerald-800'}`}>
                {e.amount > 0 ? '+' : ''}
                {money(e.amount, e.currency)}
              </td>
              <td className="order-4 text-xs text-slate-700 tabular-nums md:px-3 md:py-2 md:text-right md:text-sm md:text-slate-900">
                <span className="md:sr-only">{t('detail.balanceAfter')} </span>
                {e.balanceAfter === null ? '—' : money(e.balanceAfter, e.currency)}
              </td>
              <td className="order-5 text-right text-xs text-slate-700 md:px-3 md:py-2 md:text-left">
                <LocalTime iso={e.createdAt} /> · {actorWords(e.actor)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <TimeZoneNote className="mt-2" />
    </div>
  );
}
