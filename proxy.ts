import { type NextRequest, NextResponse } from 'next/server';
import { requestAddress } from '@/lib/api/client-address';
import { PUBLIC_PAGE_HEADER, PUBLIC_PAGE_LANG_HEADER, PUBLIC_PAGE_SECTIONS } from '@/lib/i18n/checkout-locale';
import { takeCardLinkLookup } from '@/lib/rate-limits/wrong-link-tokens';

/** The card page is one person's card: kept by no cache, named to no other site, listed by no search engine. */
const CARD_PAGE_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' };

/**
 * The hosted checkout, the card page and the shop speak their business's customer language unless `?lang` says
 * otherwise, and the root layout writes `<html lang>` before the page runs: the request carries the link
 * reference (card token, shop slug) and `?lang` to server/i18n-request.ts, which looks the business up. A browser's
 * own copy of those headers never reaches a lookup (scripts/start.ts drops it from every request; on a dashboard page
 * it made one per request, and the page's language told whether a guessed card link exists). An address past its
 * wrong card links is refused here, before any lookup, and every other card-page request takes its lookup here
 * (lib/rate-limits/wrong-link-tokens.ts).
 */
export function proxy(request: NextRequest) {
  const [, section, key] = request.nextUrl.pathname.split('/');
  const card = section === 'c';
  if (card) {
    const retryAfter = takeCardLinkLookup(requestAddress(request.headers));
    if (retryAfter !== null) {
      return new NextResponse('Too many wrong card links from this address: try again in a minute.\n', {
        status: 429,
        headers: { ...CARD_PAGE_HEADERS, 'retry-after': String(retryAfter), 'content-type': 'text/plain; charset=utf-8' },
      });
    }
  }
  const headers = new Headers(request.headers);
  const publicPage = key && (PUBLIC_PAGE_SECTIONS as readonly string[]).includes(section);
  headers.set(PUBLIC_PAGE_HEADER, publicPage ? `${section}/${key}` : '');
  headers.set(PUBLIC_PAGE_LANG_HEADER, publicPage ? (request.nextUrl.searchParams.get('lang') ?? '') : '');
  const response = NextResponse.next({ request: { headers } });
  if (card) for (const [name, value] of Object.entries(CARD_PAGE_HEADERS)) response.headers.set(name, value);
  return response;
}

// Only the public pages: on every other path scripts/start.ts has already dropped a client's copy of the headers (a
// proxy on every page would also have Next.js hold each page POST's body for it, however large).
export const config = { matcher: ['/checkout/:reference', '/c/:token', '/shop/:slug', '/shop/:slug/orders/:reference'] };
