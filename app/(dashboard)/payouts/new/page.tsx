import { getTranslations } from 'next-intl/server';
import { SendPayoutForm } from '@/components/payouts/send-payout-form';
import { PageHeader } from '@/components/ui/page-header';
import { requirePage } from '@/server/session';
import { BANKS } from '@/lib/providers/banks';

export async function generateMetadata() {
  const t = await getTranslations('SendMoney');
  return { title: t('metaTitle') };
}

export default async function NewPayoutPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('money:move');
  const [params, t, shell] = await Promise.all([searchParams, getTranslations('SendMoney'), getTranslations('Shell')]);
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const defaultCard = first(params.card)?.replace(/\D/g, '').slice(0, 16) ?? '';
  // Search links another business here as ?type=b2b&merchant_id=...
  const merchant = first(params.type) === 'b2b' ? first(params.merchant_id)?.trim().slice(0, 64) : undefined;
  return (
    <>
      <PageHeader back={{ href: '/payouts', label: t('back') }} title={t('title')} description={t('description', { mode: shell(`modes.${session.mode}`) })} />
      <SendPayoutForm defaultCard={defaultCard} defaultMerchantId={merchant ?? ''} banks={BANKS.filter((b) => b.slug !== 'link')} />
    </>
  );
}
