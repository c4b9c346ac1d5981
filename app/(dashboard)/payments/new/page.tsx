import { getTranslations } from 'next-intl/server';
import { NewPaymentForm } from '@/components/payments/new-payment-form';
import { PageHeader } from '@/components/ui/page-header';
import { requirePage } from '@/server/session';
import { BANKS } from '@/lib/providers/banks';

export async function generateMetadata() {
  const t = await getTranslations('NewPayment');
  return { title: t('metaTitle') };
}

export default async function NewPaymentPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('money:move');
  const [{ card }, t, shell] = await Promise.all([searchParams, getTranslations('NewPayment'), getTranslations('Shell')]);
  const defaultCard = (Array.isArray(card) ? card[0] : card)?.replace(/\D/g, '').slice(0, 16) ?? '';
  return (
    <>
      <PageHeader back={{ href: '/payments', label: t('back') }} title={t('title')} description={t('description', { mode: shell(`modes.${session.mode}`) })} />
      <NewPaymentForm defaultCard={defaultCard} wallets={BANKS.filter((b) => b.type === 'wallet')} />
    </>
  );
}
