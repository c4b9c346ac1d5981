import { getRequestConfig } from 'next-intl/server';
import { headers } from 'next/headers';
import { cache } from 'react';
import { checkoutLocale, PUBLIC_PAGE_HEADER, PUBLIC_PAGE_LANG_HEADER, type PublicPageSection } from '@/lib/i18n/checkout-locale';
import { isLocale, type Locale, localeFromAcceptLanguage } from '@/lib/i18n/locale';
import { cardPageOf } from '@/server/card-page';
import { checkoutOf } from '@/server/checkout';
import { shopOf } from '@/server/shop';
import { getDb } from '@/lib/db/client';
import { getDashboardSession } from '@/server/session';

/** The customer language of the business behind each public page's key. */
const CUSTOMER_LANGUAGE: Record<PublicPageSection, (key: string) => Promise<Locale | undefined>> = {
  checkout: async (reference) => (await checkoutOf(reference))?.customerLanguage,
  c: async (token) => (await cardPageOf(token))?.business.customerLanguage,
  shop: async (slug) => (await shopOf(getDb(), slug))?.customerLanguage,
};

/** A public page's language: its `?lang`, else its business's customer language; undefined for any other page. */
const publicPageLocale = cache(async (page: string | null, lang: string | null): Promise<Locale | undefined> => {
  const slash = page?.indexOf('/') ?? -1;
  if (!page || slash < 0) return undefined;
  const read = CUSTOMER_LANGUAGE[page.slice(0, slash) as PublicPageSection];
  if (!read) return undefined;
  if (isLocale(lang)) return lang;
  let key: string;
  try {
    key = decodeURIComponent(page.slice(slash + 1));
  } catch {
    return undefined;
  }
  return key ? checkoutLocale(lang, await read(key)) : undefined;
});

/**
 * next-intl's per-request configuration, without locale segments in the path. A page that knows its reader's
 * language passes it as `locale`; the hosted checkout, the card page (`/c/{token}`) and the shop speak their
 * business's customer language or `?lang` (proxy.ts hands on the path and `?lang`); everything else reads the
 * signed-in person's stored choice, else the browser's Accept-Language (English when it names neither).
 */
export default getRequestConfig(async ({ locale: asked }) => {
  const h = await headers();
  const locale: Locale = isLocale(asked)
    ? asked
    : ((await publicPageLocale(h.get(PUBLIC_PAGE_HEADER), h.get(PUBLIC_PAGE_LANG_HEADER))) ??
      (await getDashboardSession())?.language ??
      localeFromAcceptLanguage(h.get('accept-language')));
  return { locale, messages: (await import(`../messages/${locale}.json`)).default, timeZone: 'Africa/Addis_Ababa' };
});
