'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useErrorText } from '@/components/forms/use-error-text';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { type BusinessSettingsInput, businessSettingsSchema } from '@/lib/actions/business.validation';
import { updateBusinessSettings } from '@/server/actions/business';

export interface BusinessSettingsFormProps {
  timeZone: string;
  country: string;
  timeZones: { value: string; label: string }[];
  countries: { value: string; label: string }[];
}

/** Time zone and country, for owners: every date shown, filtered and exported follows the zone at once. */
export function BusinessSettingsForm({ timeZone, country, timeZones, countries }: BusinessSettingsFormProps) {
  const t = useTranslations('TeamForms');
  const errorText = useErrorText();
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<BusinessSettingsInput>({
    resolver: zodResolver(businessSettingsSchema),
    defaultValues: { time_zone: timeZone, country },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setMessage(null);
    const result = await updateBusinessSettings(values);
    if (result.ok) {
      setMessage({ tone: 'success', text: t('settings.saved', { zone: result.data.timeZone.replaceAll('_', ' ') }) });
      router.refresh();
      return;
    }
    const fields = Object.entries(result.fieldErrors ?? {});
    for (const [field, text] of fields) setError(field as keyof BusinessSettingsInput, { message: text }, { shouldFocus: true });
    if (fields.length === 0) setMessage({ tone: 'error', text: errorText(result) });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('settings.label')}>
      <SelectField
        id="business-time-zone"
        label={t('settings.timeZone')}
        hint={t('settings.timeZoneHint')}
        error={errors.time_zone?.message}
        // Drawn on the server with its value, not the first zone until the form hydrates.
        defaultValue={timeZone}
        {...register('time_zone')}
      >
        {timeZones.map((z) => (
          <option key={z.value} value={z.value}>
            {z.label}
          </option>
        ))}
      </SelectField>
      <SelectField
        id="business-country"
        label={t('settings.country')}
        hint={t('settings.countryHint')}
        error={errors.country?.message}
        defaultValue={country}
        {...register('country')}
      >
        {countries.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </SelectField>
      {message && (
        <Notice tone={message.tone} testId="business-settings-notice">
          {message.text}
        </Notice>
      )}
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? t('saving') : t('settings.save')}
      </Button>
    </form>
  );
}
