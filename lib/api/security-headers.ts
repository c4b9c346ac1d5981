import { randomBase62 } from '../ids';

export interface SecurityHeaderOptions {
  /** HSTS only when the public origin is https: on plain http it would be ignored, and it would break a local http setup. */
  https: boolean;
  /** next dev evaluates code with eval(); a production server never needs it. */
  allowEval?: boolean;
}

/**
 * Headers for every answer. Pages get a Content-Security-Policy with a fresh nonce,
 * written into the request too: Next.js reads the nonce from the request's policy and
 * puts it on its own scripts. API answers are data, never rendered: nothing may load.
 */
export function securityHeaders(path: string, opts: SecurityHeaderOptions): { response: Record<string, string>; requestPolicy?: string } {
  const response: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
  };
  if (opts.https) response['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  if (path.startsWith('/api/')) {
    response['content-security-policy'] = "default-src 'none'; frame-ancestors 'none'";
    return { response };
  }
  const nonce = randomBase62(22);
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.allowEval ? " 'unsafe-eval'" : ''}`,
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
  response['content-security-policy'] = policy;
  return { response, requestPolicy: policy };
}
