import { NewPaymentForm } from '@/components/payments/new-payment-form';
import { PageHeader } from '@/components/ui/page-header';
import { requirePage } from '@/server/session';
import { BANKS } from '@/lib/providers/banks';

export const metadata = { title: 'New payment · Gift cards' };

export default async function NewPaymentPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('money:move');
  const card = (await searchParams).card;
  const defaultCard = (Array.isArray(card) ? card[0] : card)?.replace(/\D/g, '').slice(0, 16) ?? '';
  return (
    <>
      <PageHeader
        back={{ href: '/payments', label: 'All payments' }}
        title="New payment"
        description={`Top up one of your cards in ${session.mode} mode: a checkout link for the customer, or a charge pushed to their wallet.`}
      />
      <NewPaymentForm defaultCard={defaultCard} wallets={BANKS.filter((b) => b.type === 'wallet')} />
    </>
  );
}
