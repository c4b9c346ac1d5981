import { getLocale, getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { ExtendExpiryForm } from '@/components/cards/extend-expiry-form';
import { formatMoney } from '@/components/ui/money';
import { EmptyState, PageHeader } from '@/components/ui/page-header';
import { EXPIRING_WITHIN_DAYS, listExpiringCards } from '@/lib/cards/list-expiring-cards';
import { dayIn } from '@/lib/time-zone';
import { getDb } from '@/lib/db/client';
import { formatDay } from '@/lib/i18n/date-text';
import { dateSettingsOf } from '@/server/date-settings';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('CardsExpiring');
  return { title: t('metaTitle') };
}

/** Support and finance see the cards about to expire, soonest first, and give one more time with a reason. */
export default async function ExpiringCardsPage() {
  const session = await requirePage('cards:expiry');
  const dates = await dateSettingsOf(session);
  const [cards, t, shell, nav, locale] = await Promise.all([
    listExpiringCards(getDb(), session.businessId, session.mode),
    getTranslations('CardsExpiring'),
    getTranslations('Shell'),
    getTranslations('Nav'),
    getLocale(),
  ]);
  return (
    <>
      <PageHeader
        back={{ href: '/cards', label: nav('pages.cards') }}
        title={t('title')}
        description={t('description', { mode: shell(`modes.${session.mode}`), days: EXPIRING_WITHIN_DAYS })}
      />
      {cards.length === 0 ? (
        <EmptyState title={t('none', { days: EXPIRING_WITHIN_DAYS })} />
      ) : (
        <ul className="space-y-3" data-testid="expiring-cards">
          {cards.map((c) => (
            <li key={c.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid={`expiring-${c.card_number}`}>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <Link
                  href={`/cards/${c.card_number}`}
                  className="font-mono font-medium text-emerald-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-700"
                >
                  {c.card_number.replace(/(\d{4})(?=\d)/g, '$1 ')}
                </Link>
                <span className="text-sm font-medium text-slate-900" data-testid="expiring-day">
                  {t('expires', { day: formatDay(new Date(c.expires_at!), dates) })}
                </span>
              </div>
              <p className="mt-1 text-sm text-slate-700">
                {[c.first_name, c.last_name].filter(Boolean).join(' ') || t('noName')} · {c.phone_number} ·{' '}
                {t.rich('holds', {
                  amount: formatMoney(Number(c.balance), c.currency, locale === 'am' ? 'am' : 'en'),
                  figure: (chunks) => <span className="tabular-nums">{chunks}</span>,
                })}
              </p>
              <details className="mt-2">
                <summary className="cursor-pointer text-sm font-medium text-emerald-800">{t('extend')}</summary>
                <div className="mt-3">
                  <ExtendExpiryForm cardNumber={c.card_number} currentDay={dayIn(session.timeZone, new Date(c.expires_at!))} />
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
