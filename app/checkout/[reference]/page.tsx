import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { CheckoutSummary } from '@/components/checkout/checkout-summary';
import { formatMoney } from '@/components/ui/money';
import { PaymentOutcome } from '@/components/checkout/payment-outcome';
import { AwaitingVerify } from '@/components/checkout/awaiting-verify';
import { LiveCheckoutLink } from '@/components/checkout/live-checkout-link';
import { TestPaymentButtons } from '@/components/checkout/test-payment-buttons';
import { getDb } from '@/lib/db/client';
import { getCheckout } from '@/lib/payments/get-checkout';
import { requestPublicVerify } from '@/lib/payments/verify-live-payment';
import { completeCheckout } from '@/server/actions/checkout';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ reference: string }>; searchParams: Promise<{ from?: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const checkout = await getCheckout(getDb(), (await params).reference);
  return { title: checkout ? `Pay ${checkout.businessName}` : 'Payment not found', robots: { index: false } };
}

export default async function CheckoutPage({ params, searchParams }: Props) {
  const reference = (await params).reference;
  const checkout = await getCheckout(getDb(), reference);
  if (!checkout) notFound();
  // Back from Chapa's page: verify soon rather than on the schedule; the page never waits for Chapa (anyone can open it).
  const backFromChapa = checkout.mode === 'live' && checkout.status === 'pending' && (await searchParams).from === 'chapa';
  if (backFromChapa) await requestPublicVerify(getDb(), reference);
  const total = formatMoney(checkout.total, checkout.currency);

  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col gap-5 px-4 py-6 sm:py-10">
      <header>
        <p className="text-sm font-medium uppercase tracking-wide text-slate-500">Gift card top-up</p>
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
        />
      </div>

      {checkout.status !== 'pending' ? (
        <PaymentOutcome status={checkout.status} />
      ) : checkout.mode === 'test' ? (
        <TestPaymentButtons reference={checkout.linkReference} totalLabel={total} action={completeCheckout} />
      ) : checkout.providerCheckoutUrl ? (
        <>
          {backFromChapa && <AwaitingVerify />}
          <LiveCheckoutLink chapaUrl={checkout.providerCheckoutUrl} reference={checkout.linkReference} totalLabel={total} />
        </>
      ) : (
        <div role="status" className="rounded-lg border border-slate-300 bg-white p-4">
          <p className="font-semibold">Payment isn&apos;t available</p>
          <p className="mt-1 text-sm text-slate-600">No payment processor is set up for live payments yet. Nothing has been charged.</p>
        </div>
      )}

      <p className="text-xs text-slate-500">Reference {checkout.linkReference}</p>
    </main>
  );
}
