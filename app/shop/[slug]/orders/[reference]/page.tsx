import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { requestAddress } from '@/lib/api/client-address';
import { ShopHeader } from '@/components/shop/shop-header';
import { getDb } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors';
import { shopOrderStatus } from '@/lib/shop/order-status';
import { shopOf } from '@/server/shop';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ slug: string; reference: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const shop = await shopOf(getDb(), (await params).slug);
  const words = await getTranslations('Shop');
  return { title: shop ? words('metaTitle', { business: shop.businessName }) : words('notFound.title'), robots: { index: false }, referrer: 'no-referrer' };
}

/** Where the buyer comes back to: what became of the order and what happens next; nothing about anyone. */
export default async function ShopOrderPage({ params }: Props) {
  const { slug, reference } = await params;
  const shop = await shopOf(getDb(), slug);
  if (!shop) notFound();
  const order = await shopOrderStatus(getDb(), { slug, reference, address: requestAddress(await headers()) }).catch((err) => {
    if (err instanceof ServiceError && err.code === 'not_found') notFound();
    throw err;
  });
  const t = await getTranslations('Shop.order');
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col gap-5 px-4 py-6 sm:py-10">
      <ShopHeader businessName={shop.businessName} headline={null} color={shop.color} testMode={shop.mode === 'test'} />
      <section role="status" data-testid="order-status" data-status={order.status} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <h2 className="text-xl font-semibold">{t(`title.${order.status}`)}</h2>
        <p className="mt-2 text-slate-700">{t(`text.${order.status}`)}</p>
      </section>
      <a href={`/shop/${shop.slug}`} className="text-center font-medium text-emerald-800 underline underline-offset-2">
        {t('another')}
      </a>
    </main>
  );
}
