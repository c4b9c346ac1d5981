import { useTranslations } from 'next-intl';
import { formatMoney } from '@/components/ui/money';
import type { Locale } from '@/lib/i18n/locale';

export interface CheckoutSummaryProps {
  currency: string;
  amount: number;
  serviceFee: number;
  total: number;
  lastFour: string | null;
  locale: Locale;
  /** The payment's day and time, already written in the business's calendar and zone. */
  dateText: string;
}

export function CheckoutSummary({ currency, amount, serviceFee, total, lastFour, locale, dateText }: CheckoutSummaryProps) {
  const t = useTranslations('Checkout.summary');
  return (
    <dl className="divide-y divide-slate-200 text-base" aria-label={t('label')}>
      {lastFour && (
        <div className="flex justify-between gap-4 py-3">
          <dt className="text-slate-600">{t('giftCard')}</dt>
          <dd className="font-medium" data-testid="card-last-four">
            <span aria-hidden="true">•••• </span>
            <span className="sr-only">{t('endingIn')} </span>
            {lastFour}
          </dd>
        </div>
      )}
      <div className="flex justify-between gap-4 py-3">
        <dt className="text-slate-600">{t('date')}</dt>
        <dd className="text-right font-medium" data-testid="checkout-date">
          {dateText}
        </dd>
      </div>
      <div className="flex justify-between gap-4 py-3">
        <dt className="text-slate-600">{t('amount')}</dt>
        <dd className="font-medium tabular-nums" data-testid="amount">
          {formatMoney(amount, currency, locale)}
        </dd>
      </div>
      <div className="flex justify-between gap-4 py-3">
        <dt className="text-slate-600">{t('serviceFee')}</dt>
        <dd className="font-medium tabular-nums" data-testid="service-fee">
          {formatMoney(serviceFee, currency, locale)}
        </dd>
      </div>
      <div className="flex justify-between gap-4 py-3 text-lg">
        <dt className="font-semibold">{t('total')}</dt>
        <dd className="font-semibold tabular-nums" data-testid="total">
          {formatMoney(total, currency, locale)}
        </dd>
      </div>
    </dl>
  );
}
