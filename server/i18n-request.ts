import { getRequestConfig } from 'next-intl/server';
import { headers } from 'next/headers';
import { cache } from 'react';
import { CARD_TOKEN_HEADER, CHECKOUT_LANG_HEADER, CHECKOUT_REFERENCE_HEADER, checkoutLocale, SHOP_SLUG_HEADER } from '@/lib/i18n/checkout-locale';
import { isLocale, type Locale, localeFromAcceptLanguage } from '@/lib/i18n/locale';
import { cardPageOf } from '@/server/card-page';
import { checkoutOf } from '@/server/checkout';
import { shopOf } from '@/server/shop';
import { getDb } from '@/lib/db/client';
import { getDashboardSession } from '@/server/session';

/** The hosted checkout's language (its `?lang`, else its business's customer language), when the request is one. */
const checkoutRequestLocale = cache(async (reference: string | null, lang: string | null): Promise<Locale | undefined> => {
  if (!reference) return undefined;
  if (isLocale(lang)) return lang;
  let ref: string;
  try {
    ref = decodeURIComponent(reference);
  } catch {
    return undefined;
  }
  return checkoutLocale(lang, (await checkoutOf(ref))?.customerLanguage);
});

/** The card page's language: its `?lang`, else its business's customer language. */
const cardPageLocale = cache(async (token: string | null, lang: string | null): Promise<Locale | undefined> => {
  if (!token) return undefined;
  if (isLocale(lang)) return lang;
  return (await cardPageOf(token))?.business.customerLanguage;
});

/** The shop's language, on its page and its order pages: its `?lang`, else its business's customer language. */
const shopLocale = cache(async (slug: string | null, lang: string | null): Promise<Locale | undefined> => {
  if (!slug) return undefined;
  if (isLocale(lang)) return lang;
  return (await shopOf(getDb(), slug))?.customerLanguage;
});

/**
 * next-intl's per-request configuration, without locale segments in the path. A page that knows its reader's
 * language passes it as `locale`; the hosted checkout (whose path and `?lang` proxy.ts hands on) speaks its
 * business's customer language or `?lang`, and so do the card page (`/c/{token}`) and the shop; everything else reads the signed-in person's stored choice, else
 * the browser's Accept-Language (English when it names neither).
 */
export default getRequestConfig(async ({ locale: asked }) => {
  const h = await headers();
  const locale: Locale = isLocale(asked)
    ? asked
    : ((await checkoutRequestLocale(h.get(CHECKOUT_REFERENCE_HEADER), h.get(CHECKOUT_LANG_HEADER))) ??
      (await cardPageLocale(h.get(CARD_TOKEN_HEADER), h.get(CHECKOUT_LANG_HEADER))) ??
      (await shopLocale(h.get(SHOP_SLUG_HEADER), h.get(CHECKOUT_LANG_HEADER))) ??
      (await getDashboardSession())?.language ??
      localeFromAcceptLanguage(h.get('accept-language')));
  return { locale, messages: (await import(`../messages/${locale}.json`)).default, timeZone: 'Africa/Addis_Ababa' };
});
