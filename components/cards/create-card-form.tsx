'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { createCard } from '@/server/actions/cards';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { useBusinessPreferences } from '@/components/providers/business-preferences';
import { createCardFormSchema, type CreateCardForm } from '@/lib/actions/cards.validation';
import { CURRENCIES } from '@/lib/validation';

export function CreateCardFormView() {
  const t = useTranslations('NewCard');
  const locale = useLocale();
  const errorText = useErrorText();
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
    if (!result.fieldErrors || Object.keys(result.fieldErrors).some((f) => !(f in values))) setMessage(errorText(result));
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <TextField
        id="phone_number"
        label={t('phone')}
        type="tel"
        autoComplete="off"
        inputMode="tel"
        placeholder={country === 'ET' ? '0911 234 567' : undefined}
        hint={t('phoneHint', { country: countryName(country, locale) })}
        error={errors.phone_number?.message}
        {...register('phone_number')}
      />
      <SelectField id="currency" label={t('currency')} error={errors.currency?.message} {...register('currency')}>
        {CURRENCIES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </SelectField>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="first_name"
          label={t('firstName')}
          autoComplete="off"
          hint={t('firstNameHint')}
          error={errors.first_name?.message}
          {...register('first_name')}
        />
        <TextField id="last_name" label={t('lastName')} autoComplete="off" error={errors.last_name?.message} {...register('last_name')} />
      </div>
      {message && <Notice tone="error">{message}</Notice>}
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? t('creating') : t('create')}
      </Button>
    </form>
  );
}

/** The business's country as the reader's language names it, for the hint on how a number is read. */
function countryName(country: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(country) ?? country;
  } catch {
    // An unknown code is shown as it is.
    return country;
  }
}
