import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { CreatePaymentFormInput } from '@/lib/actions/payment.validation';
import type { BankOrWallet } from '@/lib/providers/banks';
import { FormField } from '@/components/ui/field';
import { RadioChoice, SelectInput, TextInput } from '@/components/forms/form-controls';

const TYPE_LABELS = [
  ['hosted', 'Hosted link to share'],
  ['direct-charge', 'Direct wallet charge'],
] as const;

/** How the customer pays: a hosted link to share, or a charge sent to their wallet. */
export function PaymentTypeChoice({ register }: { register: UseFormRegister<CreatePaymentFormInput> }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">How the customer pays</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {TYPE_LABELS.map(([value, label]) => (
          <RadioChoice key={value} value={value} {...register('type')}>
            {label}
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
  return (
    <>
      <FormField
        id="payment_method"
        label="Wallet"
        error={errors.payment_method?.message}
        hint={currency ? `Those that take ${currency}, the card’s currency.` : 'Enter the card number first: only wallets for its currency are offered.'}
      >
        <SelectInput
          id="payment_method"
          invalid={!!errors.payment_method}
          disabled={!currency}
          {...register('payment_method')}
          // Controlled by the form's value, so the choice survives a failed attempt.
          value={paymentMethod ?? ''}
        >
          <option value="">{currency ? 'Choose…' : 'Enter the card number first'}</option>
          {walletChoices.map((w) => (
            <option key={w.slug} value={w.slug}>
              {w.name}
            </option>
          ))}
        </SelectInput>
      </FormField>
      <FormField
        id="phone_number"
        label="Wallet phone number"
        error={errors.phone_number?.message}
        hint="As the customer gives it, e.g. 0911 234 567 or +251 911 234 567."
      >
        <TextInput id="phone_number" type="tel" autoComplete="off" invalid={!!errors.phone_number} {...register('phone_number')} />
      </FormField>
    </>
  );
}
