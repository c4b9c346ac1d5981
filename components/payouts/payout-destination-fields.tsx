import type { UseQueryResult } from '@tanstack/react-query';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { SelectInput, TextInput } from '@/components/forms/form-controls';
import { FormField } from '@/components/ui/field';
import type { PayoutPreview } from '@/lib/actions/payout-actions';
import type { DestinationType, SendPayoutInput } from '@/lib/actions/payout.validation';
import type { RecipientPreview } from '@/lib/payouts/recipient-preview';
import type { BankOrWallet } from '@/lib/providers/banks';
import { failureOf } from './action-result';
import { failureText } from './payout-form-messages';
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
  return (
    <>
      {type === 'card_to_card' && (
        <div>
          <FormField
            id="destination_card_number"
            label="Destination card number"
            error={errors.destination_card_number?.message}
            hint="Any active card of the same currency and mode; paste it as it is shown, spaces and all."
          >
            <TextInput
              id="destination_card_number"
              inputMode="numeric"
              autoComplete="off"
              invalid={!!errors.destination_card_number}
              {...register('destination_card_number')}
            />
          </FormField>
          <div aria-live="polite" data-testid="recipient" className="mt-2 text-sm">
            {destinationNumber && recipient.isFetching && !recipient.data && <p className="text-slate-600">Looking up the card…</p>}
            {destinationNumber && recipient.error && <p className="text-red-700">{failureText(failureOf(recipient.error), undefined)}</p>}
            {destinationNumber && recipient.data && <RecipientCard recipient={recipient.data} />}
          </div>
        </div>
      )}
      {type === 'b2b' && (
        <FormField id="merchant_id" label="Merchant id" error={errors.merchant_id?.message} hint="The public merchant id of the business to pay.">
          <TextInput id="merchant_id" autoComplete="off" invalid={!!errors.merchant_id} {...register('merchant_id')} />
          {preview.data?.merchantName && !errors.merchant_id && (
            <p className="mt-1 text-sm text-slate-800" data-testid="merchant-name">
              Pays <span className="font-semibold">{preview.data.merchantName}</span>
            </p>
          )}
        </FormField>
      )}
      {type === 'bank' && (
        <>
          <FormField
            id="bank_slug"
            label="Bank or wallet"
            error={errors.bank_slug?.message}
            hint={
              currency
                ? `Those that take ${currency}, the card’s currency.`
                : 'Enter the source card first: only banks and wallets for its currency are offered.'
            }
          >
            <SelectInput
              id="bank_slug"
              invalid={!!errors.bank_slug}
              disabled={!currency}
              {...register('bank_slug')}
              // Controlled by the form's value, so the choice survives a failed send and a refreshed preview.
              value={bankSlug}
            >
              <option value="">{currency ? 'Choose…' : 'Enter the source card first'}</option>
              {bankChoices.map((b) => (
                <option key={b.slug} value={b.slug}>
                  {b.name} ({b.type})
                </option>
              ))}
            </SelectInput>
          </FormField>
          <FormField id="account_number" label="Account number" error={errors.account_number?.message}>
            <TextInput id="account_number" autoComplete="off" invalid={!!errors.account_number} {...register('account_number')} />
          </FormField>
          <FormField id="account_name" label="Account holder’s name" error={errors.account_name?.message}>
            <TextInput id="account_name" autoComplete="off" invalid={!!errors.account_name} {...register('account_name')} />
          </FormField>
        </>
      )}
    </>
  );
}
