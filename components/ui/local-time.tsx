'use client';

import { useLocale } from 'next-intl';
import { useBusinessPreferences } from '@/components/providers/business-preferences';
import { formatDayTime } from '@/lib/i18n/date-text';
import { isLocale } from '@/lib/i18n/locale';

/**
 * A timestamp on the business's wall clock, in the reader's language and calendar: the same text on the server
 * and in every browser, wherever the viewer is.
 */
export function LocalTime({ iso }: { iso: string }) {
  const { timeZone, calendar = 'gregorian' } = useBusinessPreferences();
  const locale = useLocale();
  return (
    <time dateTime={iso} title={`${iso.slice(0, 19).replace('T', ' ')} UTC`}>
      {formatDayTime(new Date(iso), { locale: isLocale(locale) ? locale : 'en', calendar, timeZone })}
    </time>
  );
}
