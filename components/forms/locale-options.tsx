'use client';

import { useTranslations } from 'next-intl';

/** The two languages, each named in itself: the options of every language choice (a person's, a business's customers'). */
export function LanguageOptions() {
  return (
    <>
      <option value="am" lang="am">
        አማርኛ
      </option>
      <option value="en" lang="en">
        English
      </option>
    </>
  );
}

/** The two calendars, in the reader's language: the options of every calendar choice. */
export function CalendarOptions() {
  const t = useTranslations('Calendars');
  return (
    <>
      <option value="gregorian">{t('gregorian')}</option>
      <option value="ethiopic">{t('ethiopic')}</option>
    </>
  );
}
