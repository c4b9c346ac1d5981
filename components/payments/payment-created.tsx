import Link from 'next/link';
import { CopyField } from '@/components/ui/copy-field';
import { formatMoney } from '@/components/ui/money';
import type { CreatedPayment } from '@/lib/payments/create-payment';

/** A started payment: what the customer pays, then the checkout link to share or what the wallet charge awaits. */
export function PaymentCreated({ created }: { created: CreatedPayment }) {
  const money = (n: number) => formatMoney(n, created.currency);
  return (
    <section
      aria-labelledby="created-heading"
      className="space-y-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      data-testid="payment-created"
    >
      <h2 id="created-heading" className="text-lg font-semibold text-slate-900">
        Payment started
      </h2>
      <p className="text-sm text-slate-700">
        {money(created.amount)} to card <span className="font-mono">{created.card_number}</span>; the customer pays{' '}
        {money(created.amount + created.service_fee)} including a {money(created.service_fee)} fee.
      </p>
      {created.checkout_url ? (
        <CopyField id="checkout-url" label="Checkout link for the customer" value={created.checkout_url} copyLabel="Copy link" />
      ) : created.next_action ? (
        <p className="text-sm text-slate-700" data-testid="next-action" data-type={created.next_action.type}>
          <span className="font-medium">Next: </span>
          <span className="[overflow-wrap:anywhere]">{created.next_action.message}</span>
        </p>
      ) : (
        <p className="text-sm text-slate-700">The charge was sent to the customer’s {created.payment_method} wallet; it completes when they approve it.</p>
      )}
      <Link
        href={`/payments/${created.link_reference}`}
        className="inline-block text-sm font-medium text-emerald-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-emerald-700"
      >
        View payment {created.link_reference}
      </Link>
    </section>
  );
}
