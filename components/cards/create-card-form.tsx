'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { createCard } from '@/server/actions/cards';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { useBusinessPreferences } from '@/components/providers/business-preferences';
import { createCardFormSchema, type CreateCardForm } from '@/lib/actions/cards.validation';
import { CURRENCIES } from '@/lib/validation';

export function CreateCardFormView() {
  const router = useRouter();
  const { country } = useBusinessPreferences();
  const [message, setMessage] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<CreateCardForm>({
    resolver: zodResolver(createCardFormSchema),
    defaultValues: { phone_number: '', currency: 'ETB', first_name: '', last_name: '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setMessage(null);
    const result = await createCard(values);
    if (result.ok) {
      router.push(`/cards/${result.data.cardNumber}?created=1`);
      return;
    }
    for (const [field, text] of Object.entries(result.fieldErrors ?? {})) {
      if (field in values) setError(field as keyof CreateCardForm, { message: text }, { shouldFocus: true });
    }
    if (!result.fieldErrors || Object.keys(result.fieldErrors).some((f) => !(f in values))) setMessage(result.message);
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <TextField
        id="phone_number"
        label="Phone number"
        type="tel"
        autoComplete="off"
        inputMode="tel"
        placeholder={country === 'ET' ? '0911 234 567' : undefined}
        hint={phoneHint(country)}
        error={errors.phone_number?.message}
        {...register('phone_number')}
      />
      <SelectField id="currency" label="Currency" error={errors.currency?.message} {...register('currency')}>
        {CURRENCIES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </SelectField>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="first_name"
          label="First name"
          autoComplete="off"
          hint="Needed when the phone number is new."
          error={errors.first_name?.message}
          {...register('first_name')}
        />
        <TextField id="last_name" label="Last name (optional)" autoComplete="off" error={errors.last_name?.message} {...register('last_name')} />
      </div>
      {message && <Notice tone="error">{message}</Notice>}
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? 'Creating…' : 'Create card'}
      </Button>
    </form>
  );
}

/** How the form reads a number: national as the business's country, anything else with + and its country code. */
function phoneHint(country: string): string {
  let name = country;
  try {
    name = new Intl.DisplayNames(['en'], { type: 'region' }).of(country) ?? country;
  } catch {
    // An unknown code is shown as it is.
  }
  return `A number without a country code is read as a number in ${name}; for another country, start with + and its code.`;
}
