import { randomBase62 } from '../ids';

export interface SecurityHeaderOptions {
  /** HSTS only when the public origin is https: on plain http it would be ignored, and it would break a local http setup. */
  https: boolean;
}

export type HeaderList = readonly (readonly [string, string])[];

/**
 * Headers for every answer, built once: `for(path)` gives a request's set. Pages get a
 * Content-Security-Policy with a fresh nonce, to be written into the request too:
 * Next.js reads the nonce from the request's policy and puts it on its own scripts.
 * API answers are data, never rendered: nothing may load, and their set is one constant.
 */
export function securityHeaders(opts: SecurityHeaderOptions): { for(path: string): { response: HeaderList; requestPolicy?: string } } {
  const always: HeaderList = [
    ['x-content-type-options', 'nosniff'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
    ['x-frame-options', 'DENY'],
    ...(opts.https ? [['strict-transport-security', 'max-age=31536000; includeSubDomains'] as const] : []),
  ];
  const api = { response: [...always, ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"] as const] };
  const pagePolicy = (nonce: string) =>
    [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
      // React writes style attributes (chart bars, widths); styles cannot run code.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; ');
  // The shop and its orders are opened by anyone: nothing of their address goes on in a Referer (CONTRACT 4a).
  const unreferred = (list: HeaderList): HeaderList => list.map(([k, v]) => (k === 'referrer-policy' ? [k, 'no-referrer'] : [k, v]));
  const shopApi = { response: unreferred(api.response) };
  return {
    for(path) {
      if (path.startsWith('/api/shop/')) return shopApi;
      if (path.startsWith('/api/')) return api;
      const policy = pagePolicy(randomBase62(22));
      const response: HeaderList = [...always, ['content-security-policy', policy]];
      return { response: path.startsWith('/shop/') ? unreferred(response) : response, requestPolicy: policy };
    },
  };
}
