import { useLocale, useTranslations } from 'next-intl';
import Link from 'next/link';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { StatusBadge } from '@/components/ui/status-badge';
import type { SearchResults } from '@/lib/search/search-everything';

const link = 'block rounded-lg px-3 py-2 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-emerald-700';
const moreLink = 'inline-block px-3 py-1.5 text-sm font-medium text-emerald-800 underline underline-offset-2 hover:text-emerald-950';

/** "4000 1234 5678 8420": a card number in groups of four, as printed. */
const grouped = (n: string) => n.replace(/(\d{4})(?=\d)/g, '$1 ');

/** The search's help sentence's choices for a role: what it may look for beyond cards. */
export function helpChoices(kinds: { history: boolean; businesses: boolean; references: boolean }) {
  return { history: kinds.history ? 'yes' : 'no', references: kinds.references ? 'yes' : 'no', businesses: kinds.businesses ? 'yes' : 'no' };
}

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
  const t = useTranslations('SearchResults');
  const cardsT = useTranslations('Cards');
  const payoutsT = useTranslations('Payouts');
  const paymentsT = useTranslations('Payments');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const money = (minor: number, currency: string) => formatMoney(minor, currency, locale);
  const cardStatus = (status: string) => (['active', 'disabled', 'cancelled', 'expired'].includes(status) ? cardsT(`statuses.${status}`) : status);
  const payoutStatus = (status: string) => (['pending', 'success', 'failed'].includes(status) ? payoutsT(`statuses.${status}`) : status);
  const paymentStatus = (status: string) => (['pending', 'success', 'failed', 'cancelled'].includes(status) ? paymentsT(`statuses.${status}`) : status);
  const payoutType = (type: string, topup: boolean) =>
    topup ? payoutsT('types.topup') : ['card_to_card', 'b2b', 'bank'].includes(type) ? payoutsT(`types.${type}`) : payoutsT('types.other');
  const { cards = [], payouts = [], payments = [], references = [], businesses = [] } = results;
  const q = encodeURIComponent(results.query);
  if (cards.length + payouts.length + payments.length + references.length + businesses.length === 0) {
    return (
      <div className="px-3 py-3 text-sm text-slate-700" data-testid="search-nothing">
        <p className="font-medium text-slate-900">{t('nothing', { query: results.query })}</p>
        <p className="mt-1">
          {t(
            'help',
            helpChoices({
              history: results.payments !== undefined,
              businesses: results.businesses !== undefined,
              references: results.references !== undefined,
            }),
          )}
        </p>
      </div>
    );
  }
  return (
    <div className="divide-y divide-slate-100">
      {cards.length > 0 && (
        <Group
          id="search-cards"
          title={t('cards')}
          count={cards.length}
          more={
            results.more.cards && (
              <Link href={`/cards?q=${q}`} onClick={onNavigate} className={moreLink}>
                {t('allCards')}
              </Link>
            )
          }
        >
          {cards.map((c) => (
            <li key={c.cardNumber}>
              <Link href={`/cards/${c.cardNumber}`} onClick={onNavigate} className={link}>
                <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span className="font-mono text-sm text-slate-900">{grouped(c.cardNumber)}</span>
                  <StatusBadge status={c.status} label={cardStatus(c.status)} />
                </span>
                <span className="block text-sm text-slate-700">
                  {c.holder ?? t('noName')} · {c.phone} · {c.currency}
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}
      {payouts.length > 0 && (
        <Group
          id="search-payouts"
          title={t('payouts')}
          count={payouts.length}
          more={
            results.more.payouts && (
              <Link href={`/payouts?q=${q}`} onClick={onNavigate} className={moreLink}>
                {t('allPayouts')}
              </Link>
            )
          }
        >
          {payouts.map((p) => (
            <li key={p.reference}>
              <Link href={`/payouts/${p.reference}`} onClick={onNavigate} className={link}>
                <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span className="break-all font-mono text-xs text-slate-900">{p.reference}</span>
                  <StatusBadge status={p.status} label={payoutStatus(p.status)} />
                </span>
                <span className="block text-sm text-slate-700">
                  {payoutType(p.type, p.isTopup)} · {money(p.amount, p.currency)} · <LocalTime iso={p.createdAt} />
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}
      {payments.length > 0 && (
        <Group
          id="search-payments"
          title={t('payments')}
          count={payments.length}
          more={
            results.more.payments && (
              <Link href={`/payments?q=${q}`} onClick={onNavigate} className={moreLink}>
                {t('allPayments')}
              </Link>
            )
          }
        >
          {payments.map((p) => (
            <li key={p.linkReference}>
              <Link href={`/payments/${p.linkReference}`} onClick={onNavigate} className={link}>
                <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span className="text-sm text-slate-900">{p.merchantReference ? t('order', { reference: p.merchantReference }) : t('payment')}</span>
                  <StatusBadge status={p.status} label={paymentStatus(p.status)} />
                </span>
                <span className="block text-sm text-slate-700">
                  <span className="break-all font-mono text-xs">{p.linkReference}</span> · {money(p.amount, p.currency)} · <LocalTime iso={p.createdAt} />
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}
      {references.length > 0 && (
        <Group id="search-references" title={t('byReference')} count={references.length}>
          {references.map((r) => (
            <li key={`${r.kind}-${r.reference}`}>
              <Link href={`/cards/${r.card.cardNumber}`} onClick={onNavigate} className={link}>
                <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span className="font-mono text-sm text-slate-900">{grouped(r.card.cardNumber)}</span>
                  <StatusBadge status={r.card.status} label={cardStatus(r.card.status)} />
                </span>
                <span className="block text-sm text-slate-700">
                  {r.card.holder ?? t('noName')} · {r.card.currency}
                </span>
                <span className="block text-sm text-slate-700">
                  {r.kind === 'payout' ? t('payoutFrom') : t('paymentTo')} <span className="break-all font-mono text-xs">{r.reference}</span>
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}
      {businesses.length > 0 && (
        <Group id="search-businesses" title={t('businesses')} count={businesses.length}>
          {businesses.map((b) => (
            <li key={b.merchantId}>
              <Link href={`/payouts/new?type=b2b&merchant_id=${encodeURIComponent(b.merchantId)}`} onClick={onNavigate} className={link}>
                <span className="block text-sm text-slate-900">{b.name}</span>
                <span className="block text-sm text-slate-700">
                  {t('merchantId')} <span className="font-mono text-xs">{b.merchantId}</span> · {t('sendPayout')}
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}
    </div>
  );
}
