import { isLocale, type Locale } from './locale';

/**
 * The hosted checkout's path and `?lang`, handed from the proxy (which sees the URL) to the request's i18n
 * configuration (which draws the root layout's `<html lang>` and does not): the proxy overwrites both on
 * every checkout request, so neither is taken from the browser there.
 */
export const CHECKOUT_REFERENCE_HEADER = 'x-checkout-reference';
export const CHECKOUT_LANG_HEADER = 'x-checkout-lang';
/** The card page's link token (`/c/{token}`), handed on the same way; its `?lang` travels in CHECKOUT_LANG_HEADER. */
export const CARD_TOKEN_HEADER = 'x-card-token';
/** The shop's slug (`/shop/{slug}` and its order pages), handed on the same way. */
export const SHOP_SLUG_HEADER = 'x-shop-slug';

/** The language a checkout reader gets: the page's `?lang` (am or en) overrides the business's customer language. */
export function checkoutLocale(asked: unknown, customerLanguage: Locale | undefined): Locale | undefined {
  if (isLocale(asked)) return asked;
  return customerLanguage;
}
