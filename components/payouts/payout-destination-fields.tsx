import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { SelectInput, TextInput } from '@/components/forms/form-controls';
import { FormField } from '@/components/ui/field';
import type { PayoutPreview } from '@/lib/actions/payout-actions';
import type { DestinationType, SendPayoutInput } from '@/lib/actions/payout.validation';
import type { RecipientPreview } from '@/lib/payouts/recipient-preview';
import type { BankOrWallet } from '@/lib/providers/banks';
import { failureOf } from './action-result';
import { usePayoutFailureText } from './payout-form-messages';
import { RecipientCard } from './payout-preview-parts';

interface DestinationFieldsProps {
  type: DestinationType;
  register: UseFormRegister<SendPayoutInput>;
  errors: FieldErrors<SendPayoutInput>;
  preview: UseQueryResult<PayoutPreview>;
  recipient: UseQueryResult<RecipientPreview>;
  destinationNumber: string | undefined;
  currency: string | undefined;
  bankChoices: readonly BankOrWallet[];
  bankSlug: string;
}

/** The send form's fields for where the money goes: another card (with its recipient), another business, or a bank or wallet account. */
export function PayoutDestinationFields({
  type,
  register,
  errors,
  preview,
  recipient,
  destinationNumber,
  currency,
  bankChoices,
  bankSlug,
}: DestinationFieldsProps) {
  const t = useTranslations('SendMoney');
  const { failureText } = usePayoutFailureText();
  return (
    <>
      {type === 'card_to_card' && (
        <div>
          <FormField id="destination_card_number" label={t('destinationCard')} error={errors.destination_card_number?.message} hint={t('destinationCardHint')}>
            <TextInput
              id="destination_card_number"
              inputMode="numeric"
              autoComplete="off"
              invalid={!!errors.destination_card_number}
              {...register('destination_card_number')}
            />
          </FormField>
          <div aria-live="polite" data-testid="recipient" className="mt-2 text-sm">
            {destinationNumber && recipient.isFetching && !recipient.data && <p className="text-slate-600">{t('lookingUp')}</p>}
            {destinationNumber && recipient.error && <p className="text-red-700">{failureText(failureOf(recipient.error), undefined)}</p>}
            {destinationNumber && recipient.data && <RecipientCard recipient={recipient.data} />}
          </div>
        </div>
      )}
      {type === 'b2b' && (
        <FormField id="merchant_id" label={t('merchantId')} error={errors.merchant_id?.message} hint={t('merchantIdHint')}>
          <TextInput id="merchant_id" autoComplete="off" invalid={!!errors.merchant_id} {...register('merchant_id')} />
          {preview.data?.merchantName && !errors.merchant_id && (
            <p className="mt-1 text-sm text-slate-800" data-testid="merchant-name">
              {t.rich('pays', { name: preview.data.merchantName, b: (chunks) => <span className="font-semibold">{chunks}</span> })}
            </p>
          )}
        </FormField>
      )}
      {type === 'bank' && (
        <>
          <FormField id="bank_slug" label={t('bank')} error={errors.bank_slug?.message} hint={currency ? t('bankHint', { currency }) : t('bankHintNoCard')}>
            <SelectInput
              id="bank_slug"
              invalid={!!errors.bank_slug}
              disabled={!currency}
              {...register('bank_slug')}
              // Controlled by the form's value, so the choice survives a failed send and a refreshed preview.
              value={bankSlug}
            >
              <option value="">{currency ? t('choose') : t('sourceFirst')}</option>
              {bankChoices.map((b) => (
                <option key={b.slug} value={b.slug}>
                  {b.name} ({t(`bankTypes.${b.type}`)})
                </option>
              ))}
            </SelectInput>
          </FormField>
          <FormField id="account_number" label={t('accountNumber')} error={errors.account_number?.message}>
            <TextInput id="account_number" autoComplete="off" invalid={!!errors.account_number} {...register('account_number')} />
          </FormField>
          <FormField id="account_name" label={t('accountName')} error={errors.account_name?.message}>
            <TextInput id="account_name" autoComplete="off" invalid={!!errors.account_name} {...register('account_name')} />
          </FormField>
        </>
      )}
    </>
  );
}
