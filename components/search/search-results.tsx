import Link from 'next/link';
import { payoutTypeLabel } from '@/components/history/payout-labels';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { StatusBadge } from '@/components/ui/status-badge';
import type { SearchResults } from '@/lib/search/search-everything';

const link = 'block rounded-lg px-3 py-2 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-emerald-700';
const moreLink = 'inline-block px-3 py-1.5 text-sm font-medium text-emerald-800 underline underline-offset-2 hover:text-emerald-950';

/** What the search finds for a role that sees these kinds, in words for the people who use it. */
export function searchHelp(kinds: { history: boolean; businesses: boolean; references?: boolean }): string {
  const parts = ['a card number or its last four digits', 'a phone number', 'a holder’s name'];
  if (kinds.history) parts.push('a payout or payment reference', 'an order id');
  else if (kinds.references) parts.push('the full reference of a payout or payment');
  if (kinds.businesses) parts.push('another business’s name or merchant id');
  return `Search by ${parts.slice(0, -1).join(', ')} or ${parts.at(-1)}.`;
}

/** "4000 1234 5678 8420": a card number in groups of four, as printed. */
const grouped = (n: string) => n.replace(/(\d{4})(?=\d)/g, '$1 ');

function Group({ id, title, count, children, more }: { id: string; title: string; count: number; children: React.ReactNode; more?: React.ReactNode }) {
  return (
    <section aria-labelledby={id} data-testid={id} className="py-2">
      <h2 id={id} className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">
        {title} <span className="font-normal">({count})</span>
      </h2>
      <ul>{children}</ul>
      {more}
    </section>
  );
}

/**
 * The results of one search grouped by kind, each result a link: the header's
 * drop-down and the /search page show the same thing. `onNavigate` closes the drop-down.
 */
export function SearchResultsView({ results, onNavigate }: { results: SearchResults; onNavigate?: () => void }) {
  const { cards = [], payouts = [], payments = [], references = [], businesses = [] } = results;
  const q = encodeURIComponent(results.query);
  if (cards.length + payouts.length + payments.length + references.length + businesses.length === 0) {
    return (
      <div className="px-3 py-3 text-sm text-slate-700" data-testid="search-nothing">
        <p className="font-medium text-slate-900">Nothing found for “{results.query}”.</p>
        <p className="mt-1">
          {searchHelp({ history: results.payments !== undefined, businesses: results.businesses !== undefined, references: results.references !== undefined })}
        </p>
      </div>
    );
  }
  return (
    <div className="divide-y divide-slate-100">
      {cards.length > 0 && (
        <Group
          id="search-cards"
          title="Cards"
          count={cards.length}
          more={
            results.more.cards && (
              <Link href={`/cards?q=${q}`} onClick={onNavigate} className={moreLink}>
                All matching cards
              </Link>
            )
          }
        >
          {cards.map((c) => (
            <li key={c.cardNumber}>
              <Link href={`/cards/${c.cardNumber}`} onClick={onNavigate} className={link}>
                <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span className="font-mono text-sm text-slate-900">{grouped(c.cardNumber)}</span>
                  <StatusBadge status={c.status} />
                </span>
                <span className="block text-sm text-slate-700">
                  {c.holder ?? 'No name given'} · {c.phone} · {c.currency}
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}
      {payouts.length > 0 && (
        <Group
          id="search-payouts"
          title="Payouts"
          count={payouts.length}
          more={
            results.more.payouts && (
              <Link href={`/payouts?q=${q}`} onClick={onNavigate} className={moreLink}>
                All matching payouts
              </Link>
            )
          }
        >
          {payouts.map((p) => (
            <li key={p.reference}>
              <Link href={`/payouts/${p.reference}`} onClick={onNavigate} className={link}>
                <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span className="break-all font-mono text-xs text-slate-900">{p.reference}</span>
                  <StatusBadge status={p.status} />
                </span>
                <span className="block text-sm text-slate-700">
                  {payoutTypeLabel({ payoutType: p.type as 'bank', isLedgerTopup: p.isTopup })} · {formatMoney(p.amount, p.currency)} ·{' '}
                  <LocalTime iso={p.createdAt} />
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}
      {payments.length > 0 && (
        <Group
          id="search-payments"
          title="Payments"
          count={payments.length}
          more={
            results.more.payments && (
              <Link href={`/payments?q=${q}`} onClick={onNavigate} className={moreLink}>
                All matching payments
              </Link>
            )
          }
        >
          {payments.map((p) => (
            <li key={p.linkReference}>
              <Link href={`/payments/${p.linkReference}`} onClick={onNavigate} className={link}>
                <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span className="text-sm text-slate-900">{p.merchantReference ? `Order ${p.merchantReference}` : 'Payment'}</span>
                  <StatusBadge status={p.status} />
                </span>
                <span className="block text-sm text-slate-700">
                  <span className="break-all font-mono text-xs">{p.linkReference}</span> · {formatMoney(p.amount, p.currency)} · <LocalTime iso={p.createdAt} />
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}
      {references.length > 0 && (
        <Group id="search-references" title="Cards by reference" count={references.length}>
          {references.map((r) => (
            <li key={`${r.kind}-${r.reference}`}>
              <Link href={`/cards/${r.card.cardNumber}`} onClick={onNavigate} className={link}>
                <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span className="font-mono text-sm text-slate-900">{grouped(r.card.cardNumber)}</span>
                  <StatusBadge status={r.card.status} />
                </span>
                <span className="block text-sm text-slate-700">
                  {r.card.holder ?? 'No name given'} · {r.card.currency}
                </span>
                <span className="block text-sm text-slate-700">
                  {r.kind === 'payout' ? 'Payout from this card' : 'Payment to this card'} <span className="break-all font-mono text-xs">{r.reference}</span>
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}
      {businesses.length > 0 && (
        <Group id="search-businesses" title="Other businesses" count={businesses.length}>
          {businesses.map((b) => (
            <li key={b.merchantId}>
              <Link href={`/payouts/new?type=b2b&merchant_id=${encodeURIComponent(b.merchantId)}`} onClick={onNavigate} className={link}>
                <span className="block text-sm text-slate-900">{b.name}</span>
                <span className="block text-sm text-slate-700">
                  Merchant id <span className="font-mono text-xs">{b.merchantId}</span> · Send a payout
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}
    </div>
  );
}
