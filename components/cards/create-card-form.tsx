'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { createCard } from '@/server/actions/cards';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { createCardFormSchema, type CreateCardForm } from '@/lib/actions/cards.validation';
import { CURRENCIES } from '@/lib/validation';

export function CreateCardFormView() {
  const router = useRouter();
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
        placeholder="+251911234567"
        hint="International format with the country code."
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
