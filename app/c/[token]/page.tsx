import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { notFound } from 'next/navigation';
import { AddMoneyForm } from '@/components/card-page/add-money-form';
import { CardGifts } from '@/components/card-page/card-gifts';
import { CardQr } from '@/components/card-page/card-qr';
import { LanguageSwitch } from '@/components/checkout/language-switch';
import { formatMoney } from '@/components/ui/money';
import { formatDay, formatDayTime } from '@/lib/i18n/date-text';
import { isLocale } from '@/lib/i18n/locale';
import { type AddMoneyRefusal, addMoneyOnCardPage } from '@/server/actions/card-page';
import { cardPageOf } from '@/server/card-page';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ token: string }>; searchParams: Promise<{ lang?: string; add_money?: string }> };

const REFUSALS: readonly AddMoneyRefusal[] = ['amount', 'limit', 'closed', 'unavailable'];

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const page = await cardPageOf((await params).token);
  const t = await getTranslations('CardPage');
  return { title: page ? t('metaTitle', { business: page.business.name }) : t('notFound.title'), robots: { index: false }, referrer: 'no-referrer' };
}

/**
 * The cardholder's page behind the card's link: for a phone first. In the business's customer language unless
 * `?lang` asks for the other, dates in its calendar and zone; nothing of the business beyond its name.
 */
export default async function CardholderPage({ params, searchParams }: Props) {
  const token = (await params).token;
  const query = await searchParams;
  const page = await cardPageOf(token);
  if (!page) notFound();
  const requestLocale = await getLocale();
  const locale = isLocale(requestLocale) ? requestLocale : 'en';
  const t = await getTranslations('CardPage');
  const lang = isLocale(query.lang) ? query.lang : undefined;
  const dates = { locale, calendar: page.business.calendar, timeZone: page.business.timeZone };
  const { card } = page;
  const money = (minor: number) => formatMoney(minor, card.currency, locale);
  const refused = REFUSALS.find((r) => r === query.add_money);
  const grouped = card.number.replace(/(\d{4})(?=\d)/g, '$1 ');

  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col gap-5 px-4 py-6 sm:py-10 lg:max-w-4xl">
      {page.mode === 'test' && (
        <div role="status" data-testid="test-mode-banner" className="rounded-lg bg-amber-400 px-4 py-2 text-center text-sm font-semibold text-amber-950">
          {t('testMode')}
        </div>
      )}
      <LanguageSwitch path={`/c/${token}`} current={locale} label={t('language')} />
      <header>
        <p className="text-sm font-medium uppercase tracking-wide text-slate-500">{t('eyebrow')}</p>
        <h1 className="mt-1 text-2xl font-semibold break-words" data-testid="business-name">
          {page.business.name}
        </h1>
      </header>

      <CardGifts gifts={page.gifts.map((g) => ({ buyer: g.buyer, message: g.message, amountText: money(g.amount), dateText: formatDayTime(g.at, dates) }))} />

      <div className="grid gap-5 lg:grid-cols-2 lg:items-start">
        <div className="flex flex-col gap-5">
          <section aria-labelledby="balance-title" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <h2 id="balance-title" className="text-sm font-medium text-slate-600">
              {t('balance')}
            </h2>
            <p className="mt-1 text-4xl font-semibold tabular-nums text-slate-900" data-testid="card-balance">
              {money(card.balance)}
            </p>
            <dl className="mt-3 space-y-1 text-sm text-slate-700">
              {card.held > 0 && (
                <div className="flex justify-between gap-3" data-testid="card-held">
                  <dt>{t('held')}</dt>
                  <dd className="tabular-nums">{money(card.held)}</dd>
                </div>
              )}
              <div className="flex justify-between gap-3">
                <dt>{t('expires')}</dt>
                <dd data-testid="card-expiry">{card.expiresAt ? formatDay(card.expiresAt, dates) : t('never')}</dd>
              </div>
              {!card.active && (
                <div className="flex justify-between gap-3">
                  <dt>{t('status')}</dt>
                  <dd className="font-medium text-red-800">{t('disabled')}</dd>
                </div>
              )}
            </dl>
          </section>

          <section
            aria-labelledby="till-title"
            className="flex flex-col items-center gap-3 rounded-xl bg-white p-4 text-center shadow-sm ring-1 ring-slate-200"
          >
            <h2 id="till-title" className="text-sm font-medium text-slate-600">
              {t('showAtTill')}
            </h2>
            <CardQr cardNumber={card.number} label={t('qrLabel')} />
            <p className="font-mono text-xl tracking-wider text-slate-900" data-testid="card-number">
              {grouped}
            </p>
          </section>

          <section id="add-money" aria-labelledby="add-money-title" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <h2 id="add-money-title" className="mb-3 font-semibold text-slate-900">
              {t('addMoney.title')}
            </h2>
            {page.topUp ? (
              <AddMoneyForm
                token={token}
                lang={lang}
                currency={card.currency}
                minText={money(page.topUp.min)}
                maxText={page.topUp.max === null ? undefined : money(page.topUp.max)}
                refused={refused}
                action={addMoneyOnCardPage}
              />
            ) : (
              <p className="text-sm text-slate-600" data-testid="add-money-closed">
                {card.active ? t('addMoney.full') : t('addMoney.disabled')}
              </p>
            )}
          </section>
        </div>

        <section aria-labelledby="history-title" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 id="history-title" className="font-semibold text-slate-900">
            {t('history.title')}
          </h2>
          {page.movements.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">{t('history.empty')}</p>
          ) : (
            <ol className="mt-2 divide-y divide-slate-100" data-testid="card-history">
              {page.movements.map((m, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the list is drawn once, newest first, and never reordered.
                <li key={i} className="flex items-start justify-between gap-3 py-2.5">
                  <div className="min-w-0">
                    <p className="text-sm font-medium text-slate-900">{t(`history.kinds.${m.movement}`, { business: page.business.name })}</p>
                    <p className="text-xs text-slate-600">{formatDayTime(m.at, dates)}</p>
                  </div>
                  <div className="shrink-0 text-right">
                    <p className={`text-sm font-semibold tabular-nums ${m.amount > 0 ? 'text-emerald-800' : 'text-slate-900'}`}>
                      {m.amount > 0 ? '+' : '−'}
                      {money(Math.abs(m.amount))}
                    </p>
                    <p className="text-xs text-slate-600 tabular-nums">{t('history.balanceAfter', { balance: money(m.balanceAfter) })}</p>
                  </div>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </main>
  );
}
