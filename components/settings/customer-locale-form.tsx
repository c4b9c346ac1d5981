'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { CalendarOptions, LanguageOptions } from '@/components/forms/locale-options';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { type BusinessLocale, businessLocaleSchema } from '@/lib/business/business-locale.validation';
import { updateCustomerLocale } from '@/server/actions/business';

/** The owner's choice of the language and calendar the business's customers read on its hosted checkout. */
export function CustomerLocaleForm({ value }: { value: BusinessLocale }) {
  const t = useTranslations('Settings');
  const errorText = useErrorText();
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { register, handleSubmit, formState } = useForm<BusinessLocale>({ resolver: zodResolver(businessLocaleSchema), defaultValues: value });

  const onSubmit = handleSubmit(async (values) => {
    setMessage(null);
    const result = await updateCustomerLocale(values);
    if (!result.ok) {
      setMessage({ tone: 'error', text: errorText(result) });
      return;
    }
    setMessage({ tone: 'success', text: t('customerLocaleSaved') });
    router.refresh();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('customerLocaleTitle')}>
      <SelectField id="customer-language" label={t('customerLanguage')} hint={t('customerLanguageHint')} {...register('customer_language')}>
        <LanguageOptions />
      </SelectField>
      <SelectField id="customer-calendar" label={t('customerCalendar')} {...register('calendar')}>
        <CalendarOptions />
      </SelectField>
      {message && (
        <Notice tone={message.tone} testId="customer-locale-notice">
          {message.text}
        </Notice>
      )}
      <Button type="submit" disabled={formState.isSubmitting} className="sm:w-auto">
        {formState.isSubmitting ? t('saving') : t('saveCustomerLocale')}
      </Button>
    </form>
  );
}
