import { useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';
import type { AddMoneyRefusal } from '@/server/actions/card-page';

export interface AddMoneyFormProps {
  token: string;
  lang?: string;
  currency: string;
  /** The least and most, already written as money in the reader's language; no most when the business set no limit. */
  minText: string;
  maxText?: string;
  /** Why the last try was refused, when the page came back with one. */
  refused?: AddMoneyRefusal;
  action: (formData: FormData) => Promise<void>;
}

/** The cardholder types an amount in currency units and goes on to the hosted checkout to pay it. */
export function AddMoneyForm({ token, lang, currency, minText, maxText, refused, action }: AddMoneyFormProps) {
  const t = useTranslations('CardPage.addMoney');
  return (
    <form action={action} className="flex flex-col gap-3" noValidate>
      <input type="hidden" name="token" value={token} />
      {lang && <input type="hidden" name="lang" value={lang} />}
      <label htmlFor="add-money-amount" className="text-sm font-medium text-slate-900">
        {t('amount', { currency })}
      </label>
      <input
        id="add-money-amount"
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        required
        aria-describedby="add-money-range"
        aria-invalid={refused === 'amount' || refused === 'limit'}
        className="w-full rounded-lg border border-slate-300 px-3 py-3 text-lg tabular-nums text-slate-900 focus-visible:outline-3 focus-visible:outline-emerald-700"
      />
      <p id="add-money-range" className="text-xs text-slate-600">
        {maxText ? t('range', { min: minText, max: maxText }) : t('rangeFrom', { min: minText })}
      </p>
      {refused && (
        <p role="alert" className="text-sm font-medium text-red-800" data-testid="add-money-error">
          {t(`errors.${refused}`)}
        </p>
      )}
      <Button type="submit" variant="primary">
        {t('submit')}
      </Button>
    </form>
  );
}
