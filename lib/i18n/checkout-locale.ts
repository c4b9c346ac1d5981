import { isLocale, type Locale } from './locale';

/**
 * A public page's section and key (`checkout/{reference}`, `c/{token}`, `shop/{slug}`) and its `?lang`, handed from
 * the proxy (which sees the URL) to the request's i18n configuration (which draws the root layout's `<html lang>` and
 * does not). The proxy overwrites both on public pages and scripts/start.ts drops them from every other request, so neither is ever taken from the browser.
 */
export const PUBLIC_PAGE_HEADER = 'x-public-page';
export const PUBLIC_PAGE_LANG_HEADER = 'x-public-page-lang';
/** The pages that speak their business's customer language, by the first segment of their path. */
export const PUBLIC_PAGE_SECTIONS = ['checkout', 'c', 'shop'] as const;
export type PublicPageSection = (typeof PUBLIC_PAGE_SECTIONS)[number];

/** The language a checkout reader gets: the page's `?lang` (am or en) overrides the business's customer language. */
export function checkoutLocale(asked: unknown, customerLanguage: Locale | undefined): Locale | undefined {
  if (isLocale(asked)) return asked;
  return customerLanguage;
}
