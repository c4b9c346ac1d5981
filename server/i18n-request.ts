import { getRequestConfig } from 'next-intl/server';
import { headers } from 'next/headers';
import { isLocale, type Locale, localeFromAcceptLanguage } from '@/lib/i18n/locale';
import { getDashboardSession } from '@/server/session';

/**
 * next-intl's per-request configuration, without locale segments in the path. A page that knows its reader's
 * language (the hosted checkout: the business's customer language or ?lang) passes it as `locale`; everything
 * else reads the signed-in person's stored choice, else the browser's Accept-Language (English when it names neither).
 */
export default getRequestConfig(async ({ locale: asked }) => {
  const locale: Locale = isLocale(asked)
    ? asked
    : ((await getDashboardSession())?.language ?? localeFromAcceptLanguage((await headers()).get('accept-language')));
  return { locale, messages: (await import(`../messages/${locale}.json`)).default, timeZone: 'Africa/Addis_Ababa' };
});
