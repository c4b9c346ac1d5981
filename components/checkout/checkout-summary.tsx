import { formatMoney } from '@/components/ui/money';

export interface CheckoutSummaryProps {
  currency: string;
  amount: number;
  serviceFee: number;
  total: number;
  lastFour: string;
}

export function CheckoutSummary({ currency, amount, serviceFee, total, lastFour }: CheckoutSummaryProps) {
  return (
    <dl className="divide-y divide-slate-200 text-base" aria-label="Payment summary">
      <div className="flex justify-between gap-4 py-3">
        <dt className="text-slate-600">Gift card</dt>
        <dd className="font-medium" data-testid="card-last-four">
          <span aria-hidden="true">•••• </span>
          <span className="sr-only">ending in </span>
          {lastFour}
        </dd>
      </div>
      <div className="flex justify-between gap-4 py-3">
        <dt className="text-slate-600">Top-up amount</dt>
        <dd className="font-medium tabular-nums" data-testid="amount">
          {formatMoney(amount, currency)}
        </dd>
      </div>
      <div className="flex justify-between gap-4 py-3">
        <dt className="text-slate-600">Service fee</dt>
        <dd className="font-medium tabular-nums" data-testid="service-fee">
          {formatMoney(serviceFee, currency)}
        </dd>
      </div>
      <div className="flex justify-between gap-4 py-3 text-lg">
        <dt className="font-semibold">Total</dt>
        <dd className="font-semibold tabular-nums" data-testid="total">
          {formatMoney(total, currency)}
        </dd>
      </div>
    </dl>
  );
}
