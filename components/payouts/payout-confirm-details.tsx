import { useLocale, useTranslations } from 'next-intl';
import { formatMoney } from '@/components/ui/money';
import { isLargeAmount } from '@/lib/actions/confirmation';
import type { PayoutPreview } from '@/lib/actions/payout-actions';
import type { RecipientPreview } from '@/lib/payouts/recipient-preview';
import { amountInWords } from './amount-in-words';
import { RecipientCard } from './payout-preview-parts';

/** What the send form's confirm dialog shows: who gets the money, the amount (in words when large) and what leaves the card. */
export function PayoutConfirmDetails({
  amount,
  money,
  currency,
  recipient,
  business,
  preview,
}: {
  amount: number;
  money: (minor: number) => string;
  currency: string | undefined;
  recipient: RecipientPreview | undefined;
  business: { name: string; merchantId: string } | undefined;
  preview: PayoutPreview | undefined;
}) {
  const t = useTranslations('SendMoney');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  return (
    <div className="space-y-3">
      {recipient && <RecipientCard recipient={recipient} />}
      {business && (
        <div data-testid="confirm-business" className="rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
          <p className="font-semibold text-slate-900">{business.name}</p>
          <p className="font-mono text-xs text-slate-600">{business.merchantId}</p>
        </div>
      )}
      <p>
        <span className="block text-lg font-semibold tabular-nums text-slate-900" data-testid="confirm-amount">
          {money(amount)}
        </span>
        {isLargeAmount(amount) && (
          <span className="block text-slate-700" data-testid="confirm-words">
            {amountInWords(amount, currency, locale)}
          </span>
        )}
      </p>
      {preview?.amount === amount && (
        <p className="text-slate-700">
          {t('confirm.debitCredit', {
            debit: formatMoney(preview.debit, preview.currency, locale),
            credit: formatMoney(preview.credit, preview.currency, locale),
          })}
        </p>
      )}
      <p className="text-slate-700">{t('confirm.final')}</p>
    </div>
  );
}
