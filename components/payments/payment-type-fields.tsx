import { useTranslations } from 'next-intl';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { CreatePaymentFormInput } from '@/lib/actions/payment.validation';
import type { BankOrWallet } from '@/lib/providers/banks';
import { FormField } from '@/components/ui/field';
import { RadioChoice, SelectInput, TextInput } from '@/components/forms/form-controls';

const TYPES = ['hosted', 'direct-charge'] as const;

/** How the customer pays: a hosted link to share, or a charge sent to their wallet. */
export function PaymentTypeChoice({ register }: { register: UseFormRegister<CreatePaymentFormInput> }) {
  const t = useTranslations('NewPayment');
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">{t('howPays')}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {TYPES.map((value) => (
          <RadioChoice key={value} value={value} {...register('type')}>
            {t(`types.${value}`)}
          </RadioChoice>
        ))}
      </div>
    </fieldset>
  );
}

/** A direct charge's wallet (only those taking the card's currency) and the customer's phone number on it. */
export function DirectChargeFields({
  register,
  errors,
  currency,
  walletChoices,
  paymentMethod,
}: {
  register: UseFormRegister<CreatePaymentFormInput>;
  errors: FieldErrors<CreatePaymentFormInput>;
  currency: string | undefined;
  walletChoices: readonly BankOrWallet[];
  paymentMethod: string | undefined;
}) {
  const t = useTranslations('NewPayment');
  return (
    <>
      <FormField
        id="payment_method"
        label={t('wallet')}
        error={errors.payment_method?.message}
        hint={currency ? t('walletHint', { currency }) : t('walletHintNoCard')}
      >
        <SelectInput
          id="payment_method"
          invalid={!!errors.payment_method}
          disabled={!currency}
          {...register('payment_method')}
          // Controlled by the form's value, so the choice survives a failed attempt.
          value={paymentMethod ?? ''}
        >
          <option value="">{currency ? t('choose') : t('cardFirst')}</option>
          {walletChoices.map((w) => (
            <option key={w.slug} value={w.slug}>
              {w.name}
            </option>
          ))}
        </SelectInput>
      </FormField>
      <FormField id="phone_number" label={t('phone')} error={errors.phone_number?.message} hint={t('phoneHint')}>
        <TextInput id="phone_number" type="tel" autoComplete="off" invalid={!!errors.phone_number} {...register('phone_number')} />
      </FormField>
    </>
  );
}
