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
import { type PreferencesInput, preferencesSchema } from '@/lib/actions/account.validation';
import type { CalendarChoice, Locale } from '@/lib/i18n/locale';
import { updatePreferences } from '@/server/actions/account';

/** The person's language (or their browser's) and calendar; the page is drawn again in them once saved. */
export function PreferencesForm({ language, calendar }: { language: Locale | null; calendar: CalendarChoice }) {
  const t = useTranslations('Account');
  const errorText = useErrorText();
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { register, handleSubmit, formState } = useForm<PreferencesInput>({
    resolver: zodResolver(preferencesSchema),
    defaultValues: { language: language ?? 'browser', calendar },
  });

  const onSubmit = handleSubmit(async (values) => {
    setMessage(null);
    const result = await updatePreferences(values);
    if (!result.ok) {
      setMessage({ tone: 'error', text: errorText(result) });
      return;
    }
    setMessage({ tone: 'success', text: t('preferencesSaved') });
    router.refresh();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('preferencesTitle')}>
      <SelectField id="account-language" label={t('language')} hint={t('languageHint')} {...register('language')}>
        <option value="browser">{t('languageBrowser')}</option>
        <LanguageOptions />
      </SelectField>
      <SelectField id="account-calendar" label={t('calendar')} hint={t('calendarHint')} {...register('calendar')}>
        <CalendarOptions />
      </SelectField>
      {message && (
        <Notice tone={message.tone} testId="preferences-notice">
          {message.text}
        </Notice>
      )}
      <Button type="submit" disabled={formState.isSubmitting} className="sm:w-auto">
        {formState.isSubmitting ? t('saving') : t('savePreferences')}
      </Button>
    </form>
  );
}
