import { ServiceError } from '../errors';

/**
 * The methods each path serves. Any other method (TRACE, PROPFIND, a name Node.js's parser
 * does not know) is refused by scripts/start.ts with 405 before Next.js sees it: Next.js
 * answers TRACE with a bare 500 and WebDAV verbs with an empty 400. Under /api the refusal
 * is the envelope; on a page or a dashboard route it is a page; on a static file a bare 405.
 * The first prefix that matches counts; a new prefix is one line.
 */
export const API_METHODS: Record<string, readonly string[]> = {
  '/api/v1': ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  '/api/admin': ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  '/api/auth': ['GET', 'POST'],
  '/api/webhooks': ['POST'],
  '/api/health': ['GET'],
  '/api/ready': ['GET'],
  '/api/dashboard': ['GET', 'POST'],
  '/api/providers': ['GET', 'POST'],
  '/api': ['GET', 'POST'],
};

/** Pages answer GET and take their server actions by POST; a dashboard route file exports GET. */
const PAGE_METHODS = ['GET', 'POST'];
/** Next.js serves public/ and its own assets to GET only. */
const STATIC_METHODS = ['GET', 'HEAD'];
/** Next.js answers these itself on every route and page. */
const ANSWERED_BY_NEXT = ['HEAD', 'OPTIONS'];

export interface MethodRefusal {
  status: number;
  allow: string;
  contentType?: string;
  body: string;
}

const REFUSAL_PAGE = (allow: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Method not allowed · Gift cards</title></head><body><main><h1>Method not allowed</h1><p>This address answers ${allow}.</p><p><a href="/">Back to the dashboard</a></p></main></body></html>`;

/**
 * The 405 for a method the path does not serve; undefined when it is served. `isStatic`
 * names the paths of files under public/ (Next.js's own /_next/static/ counts always).
 */
export function refuseMethod(method: string, url: string, isStatic: (path: string) => boolean = () => false): MethodRefusal | undefined {
  const path = url.split(/[?#]/, 1)[0];
  const prefix = Object.keys(API_METHODS).find((p) => path === p || path.startsWith(`${p}/`));
  if (prefix) {
    const served = API_METHODS[prefix];
    if (served.includes(method) || ANSWERED_BY_NEXT.includes(method)) return undefined;
    const allow = served.join(', ');
    const err = new ServiceError('method_not_allowed', `${prefix} answers ${allow}.`);
    return {
      status: err.status,
      allow,
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ status: 'error', message: err.title, error: err.detail }),
    };
  }
  if (path.startsWith('/_next/static/') || isStatic(path)) {
    return STATIC_METHODS.includes(method) ? undefined : { status: 405, allow: STATIC_METHODS.join(', '), body: '' };
  }
  if (PAGE_METHODS.includes(method) || ANSWERED_BY_NEXT.includes(method)) return undefined;
  const allow = PAGE_METHODS.join(', ');
  return { status: 405, allow, contentType: 'text/html; charset=utf-8', body: REFUSAL_PAGE(allow) };
}

/**
 * The same for a request Node.js's parser refused for its method (`FOO /api/v1/card`),
 * read from the bytes it received; undefined for anything else.
 */
export function refuseUnparsedMethod(rawPacket: Buffer | undefined, isStatic?: (path: string) => boolean): MethodRefusal | undefined {
  const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\S{1,8192}) HTTP\/1\.[01]\r?\n/.exec(rawPacket?.subarray(0, 8300).toString('latin1') ?? '');
  return line ? refuseMethod(line[1], line[2], isStatic) : undefined;
}

/** A refusal as raw HTTP/1.1, for a socket whose request never reached a handler. */
export function rawRefusal(refusal: MethodRefusal, headers: Iterable<readonly [string, string]>): string {
  const lines = [
    `HTTP/1.1 ${refusal.status} Method Not Allowed`,
    ...(refusal.contentType ? [`content-type: ${refusal.contentType}`] : []),
    `content-length: ${Buffer.byteLength(refusal.body)}`,
    `allow: ${refusal.allow}`,
    'connection: close',
    ...[...headers].map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${refusal.body}`;
}
