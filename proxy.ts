import { type NextRequest, NextResponse } from 'next/server';
import { CHECKOUT_LANG_HEADER, CHECKOUT_REFERENCE_HEADER } from '@/lib/i18n/checkout-locale';

/**
 * The hosted checkout speaks its business's customer language unless `?lang` says otherwise, and the root
 * layout writes `<html lang>` before the page runs: the request carries the link reference and `?lang` to
 * server/i18n-request.ts, which looks the business up. Nothing else passes through here.
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(CHECKOUT_REFERENCE_HEADER, request.nextUrl.pathname.split('/')[2] ?? '');
  headers.set(CHECKOUT_LANG_HEADER, request.nextUrl.searchParams.get('lang') ?? '');
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ['/checkout/:reference'] };
