import { getLocale } from 'next-intl/server';
import type { DashboardSession } from '@/lib/auth/session-types';
import type { DateSettings } from '@/lib/i18n/date-text';
import { isLocale } from '@/lib/i18n/locale';

/** How the signed-in person reads dates on a page: the request's language, their calendar, the business's zone. */
export async function dateSettingsOf(session: Pick<DashboardSession, 'calendar' | 'timeZone'>): Promise<DateSettings> {
  const locale = await getLocale();
  return { locale: isLocale(locale) ? locale : 'en', calendar: session.calendar ?? 'gregorian', timeZone: session.timeZone };
}
