const OUTCOMES = {
  success: {
    title: 'Payment successful',
    text: 'The gift card has been topped up. You can close this page.',
    tone: 'border-emerald-300 bg-emerald-50 text-emerald-900',
  },
  failed: {
    title: 'Payment failed',
    text: 'No money was taken. Ask the business for a new payment link to try again.',
    tone: 'border-red-300 bg-red-50 text-red-900',
  },
  cancelled: {
    title: 'Payment cancelled',
    text: 'No money was taken. Ask the business for a new payment link to try again.',
    tone: 'border-slate-300 bg-slate-100 text-slate-900',
  },
} as const;

/** The final state of a finished payment; there is nothing left to press. */
export function PaymentOutcome({ status }: { status: keyof typeof OUTCOMES }) {
  const o = OUTCOMES[status];
  return (
    <div role="status" className={`rounded-lg border p-4 ${o.tone}`} data-testid="payment-outcome" data-status={status}>
      <p className="text-lg font-semibold">{o.title}</p>
      <p className="mt-1 text-sm">{o.text}</p>
    </div>
  );
}
