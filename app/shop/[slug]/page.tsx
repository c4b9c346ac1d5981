import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { notFound } from 'next/navigation';
import { LanguageSwitch } from '@/components/checkout/language-switch';
import { ShopOrderForm } from '@/components/shop/shop-order-form';
import { ShopHeader } from '@/components/shop/shop-header';
import { formatMoney } from '@/components/ui/money';
import { getDb } from '@/lib/db/client';
import { isLocale } from '@/lib/i18n/locale';
import { MESSAGE_MAX } from '@/lib/shop/order-input';
import { shopOf } from '@/server/shop';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const shop = await shopOf(getDb(), (await params).slug);
  const t = await getTranslations('Shop');
  return { title: shop ? t('metaTitle', { business: shop.businessName }) : t('notFound.title'), robots: { index: false }, referrer: 'no-referrer' };
}

/** A business's gift card shop: anyone buys a card for someone, on a phone first. */
export default async function ShopPage({ params }: Props) {
  const shop = await shopOf(getDb(), (await params).slug);
  if (!shop) notFound();
  const requestLocale = await getLocale();
  const locale = isLocale(requestLocale) ? requestLocale : 'en';
  const t = await getTranslations('Shop');
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col gap-5 px-4 py-6 sm:py-10">
      <LanguageSwitch path={`/shop/${shop.slug}`} current={locale} label={t('language')} />
      <ShopHeader businessName={shop.businessName} headline={shop.headline} color={shop.color} testMode={shop.mode === 'test'} />
      <ShopOrderForm
        slug={shop.slug}
        presets={shop.preset_amounts.map((amount) => ({ amount, label: formatMoney(amount, shop.currency, locale) }))}
        currency={shop.currency}
        minLabel={formatMoney(shop.min_amount, shop.currency, locale)}
        maxLabel={formatMoney(shop.max_amount, shop.currency, locale)}
        messageMax={MESSAGE_MAX}
      />
      <p className="text-center text-xs text-slate-500">{t('privacy')}</p>
    </main>
  );
}
