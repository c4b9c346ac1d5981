import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { notFound } from 'next/navigation';
import { AwaitingVerify } from '@/components/checkout/awaiting-verify';
import { CheckoutSummary } from '@/components/checkout/checkout-summary';
import { LanguageSwitch } from '@/components/checkout/language-switch';
import { LiveCheckoutLink } from '@/components/checkout/live-checkout-link';
import { PaymentOutcome } from '@/components/checkout/payment-outcome';
import { TestPaymentButtons } from '@/components/checkout/test-payment-buttons';
import { formatMoney } from '@/components/ui/money';
import { getDb } from '@/lib/db/client';
import { formatDayTime } from '@/lib/i18n/date-text';
import { isLocale } from '@/lib/i18n/locale';
import { linkOpensCard } from '@/lib/payments/top-up-from-card-page';
import { requestPublicVerify } from '@/lib/payments/verify-live-payment';
import { completeCheckout } from '@/server/actions/checkout';
import { checkoutOf } from '@/server/checkout';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ reference: string }>; searchParams: Promise<{ from?: string; lang?: string; card?: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const checkout = await checkoutOf((await params).reference);
  const t = await getTranslations('Checkout');
  return { title: checkout ? t('metaTitle', { business: checkout.businessName }) : t('notFound.title'), robots: { index: false } };
}

/**
 * The hosted checkout: in the business's customer language unless `?lang` asks for the other (the request's
 * locale, resolved by server/i18n-request.ts), dates in the business's calendar and zone.
 */
export default async function CheckoutPage({ params, searchParams }: Props) {
  const reference = (await params).reference;
  const query = await searchParams;
  const checkout = await checkoutOf(reference);
  if (!checkout) notFound();
  const requestLocale = await getLocale();
  const locale = isLocale(requestLocale) ? requestLocale : 'en';
  const t = await getTranslations('Checkout');
  const tShop = await getTranslations('Shop');
  // Back from Chapa's page: verify soon rather than on the schedule; the page never waits for Chapa (anyone can open it).
  const backFromChapa = checkout.mode === 'live' && checkout.status === 'pending' && query.from === 'chapa';
  if (backFromChapa) await requestPublicVerify(getDb(), reference);
  const total = formatMoney(checkout.total, checkout.currency, locale);
  const path = `/checkout/${encodeURIComponent(checkout.linkReference)}`;
  const lang = isLocale(query.lang) ? query.lang : undefined;
  // Opened from the card's page ("Add money"): the way back there, where the new balance shows.
  const card =
    typeof query.card === 'string' && checkout.cardId !== null && (await linkOpensCard(getDb(), query.card, checkout.cardId)) ? query.card : undefined;
  const dateText = formatDayTime(checkout.completedAt ?? checkout.createdAt, { locale, calendar: checkout.calendar, timeZone: checkout.timeZone });

  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col gap-5 px-4 py-6 sm:py-10">
      <LanguageSwitch path={path} current={locale} label={t('language')} keep={card ? { card } : undefined} />
      <header>
        <p className="text-sm font-medium uppercase tracking-wide text-slate-500">{t('eyebrow')}</p>
        <h1 className="mt-1 text-2xl font-semibold break-words" data-testid="business-name">
          {checkout.businessName}
        </h1>
      </header>

      <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <CheckoutSummary
          currency={checkout.currency}
          amount={checkout.amount}
          serviceFee={checkout.serviceFee}
          total={checkout.total}
          lastFour={checkout.lastFour}
          locale={locale}
          dateText={dateText}
        />
      </div>

      {checkout.status !== 'pending' ? (
        <PaymentOutcome status={checkout.status} />
      ) : checkout.mode === 'test' ? (
        <TestPaymentButtons reference={checkout.linkReference} lang={lang} card={card} totalLabel={total} action={completeCheckout} />
      ) : checkout.providerCheckoutUrl ? (
        <>
          {backFromChapa && <AwaitingVerify />}
          <LiveCheckoutLink chapaUrl={checkout.providerCheckoutUrl} checkUrl={`${path}?from=chapa${lang ? `&lang=${lang}` : ''}`} totalLabel={total} />
        </>
      ) : (
        <div role="status" className="rounded-lg border border-slate-300 bg-white p-4">
          <p className="font-semibold">{t('unavailable.title')}</p>
          <p className="mt-1 text-sm text-slate-600">{t('unavailable.text')}</p>
        </div>
      )}

      {card && (
        <a href={`/c/${card}${lang ? `?lang=${lang}` : ''}`} className="font-medium text-emerald-800 underline" data-testid="back-to-card">
          {t('backToCard')}
        </a>
      )}

      {checkout.orderPath && checkout.status !== 'pending' && (
        <a href={checkout.orderPath} data-testid="back-to-shop" className="text-center font-semibold text-emerald-800 underline underline-offset-2">
          {tShop('backToShop')}
        </a>
      )}

      <p className="text-xs text-slate-500">{t('reference', { reference: checkout.linkReference })}</p>
    </main>
  );
}
