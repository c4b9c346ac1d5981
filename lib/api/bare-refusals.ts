import type http from 'node:http';

/** What a refusal's body becomes: the envelope under /api, a page elsewhere. */
export interface RefusalBody {
  contentType: string;
  /** The body for a status; a page also takes the request's Accept-Language, to answer in the reader's language. */
  body: (status: number, acceptLanguage?: string) => string;
}

const REFUSAL_TITLES: Record<number, string> = { 400: 'Bad request', 404: 'Not found', 405: 'Method not allowed', 409: 'Conflict', 413: 'Too large' };
const titleOf = (status: number) => REFUSAL_TITLES[status] ?? 'Request refused';

export const ENVELOPE_REFUSAL: RefusalBody = {
  contentType: 'application/json; charset=utf-8',
  body: (status) => JSON.stringify({ status: 'error', message: titleOf(status), error: 'This request cannot be answered here.' }),
};

const headerOf = (headers: unknown, name: string): unknown =>
  headers && typeof headers === 'object' && !Array.isArray(headers) ? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1] : undefined;

/**
 * Next.js answers some refusals itself with an empty body or a line of plain text (a
 * method a route does not export, OPTIONS on a page, "Invalid Server Action request").
 * This gives each 4xx answer with no type or plain text the body it should have;
 * anything else passes untouched. HEAD answers keep no body.
 */
export function giveBareRefusalsABody(req: http.IncomingMessage, res: http.ServerResponse, refusal: RefusalBody): void {
  if (req.method === 'HEAD') return;
  let replace: boolean | undefined;
  const decide = (status: number, headers?: unknown) => {
    if (replace !== undefined) return;
    const type = String(headerOf(headers, 'content-type') ?? res.getHeader('content-type') ?? '');
    // Only no type or plain text: a 404 of a client-side navigation is React's own payload (text/x-component).
    replace = status >= 400 && status < 500 && (type === '' || /^text\/plain\b/i.test(type));
    if (!replace) return;
    for (const name of ['content-type', 'content-length', 'content-encoding']) res.removeHeader(name);
    res.setHeader('content-type', refusal.contentType);
  };
  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  res.writeHead = function (this: http.ServerResponse, status: number, ...rest: unknown[]) {
    const headers = rest.find((r) => typeof r === 'object' && r !== null);
    decide(status, headers);
    if (replace && headers && !Array.isArray(headers)) {
      const kept = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-(type|length|encoding)$/i.test(k)));
      rest = rest.map((r) => (r === headers ? kept : r));
    }
    return (writeHead as (...a: unknown[]) => http.ServerResponse).call(this, status, ...rest);
  } as typeof res.writeHead;
  res.write = function (this: http.ServerResponse, ...args: unknown[]) {
    decide(res.statusCode);
    if (!replace) return (write as (...a: unknown[]) => boolean).apply(this, args);
    const done = args.find((a) => typeof a === 'function') as (() => void) | undefined;
    if (done) process.nextTick(done);
    return true;
  } as typeof res.write;
  res.end = function (this: http.ServerResponse, ...args: unknown[]) {
    decide(res.statusCode);
    if (!replace) return (end as (...a: unknown[]) => http.ServerResponse).apply(this, args);
    const done = args.find((a) => typeof a === 'function');
    return (end as (...a: unknown[]) => http.ServerResponse).call(
      this,
      refusal.body(res.statusCode, String(req.headers['accept-language'] ?? '')),
      ...(done ? [done] : []),
    );
  } as typeof res.end;
}
