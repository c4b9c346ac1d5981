import { useTranslations } from 'next-intl';

const TONES = {
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
  failed: 'border-red-300 bg-red-50 text-red-900',
  cancelled: 'border-slate-300 bg-slate-100 text-slate-900',
} as const;

/** The final state of a finished payment; there is nothing left to press. */
export function PaymentOutcome({ status }: { status: keyof typeof TONES }) {
  const t = useTranslations('Checkout.outcome');
  const title = status === 'success' ? t('successTitle') : status === 'failed' ? t('failedTitle') : t('cancelledTitle');
  return (
    <div role="status" className={`rounded-lg border p-4 ${TONES[status]}`} data-testid="payment-outcome" data-status={status}>
      <p className="text-lg font-semibold">{title}</p>
      <p className="mt-1 text-sm">{status === 'success' ? t('successText') : t('noMoneyText')}</p>
    </div>
  );
}
