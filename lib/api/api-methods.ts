import { ServiceError } from '../errors';

/**
 * The methods each API prefix serves. Any other method there (TRACE, PROPFIND, a name
 * Node.js's parser does not know) is refused by scripts/start.ts with 405 in the envelope
 * before Next.js sees it: Next.js answers TRACE with a bare 500 and WebDAV verbs with an
 * empty 400. A new prefix is one line.
 */
export const API_METHODS: Record<string, readonly string[]> = {
  '/api/v1': ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  '/api/admin': ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  '/api/auth': ['GET', 'POST'],
  '/api/webhooks': ['POST'],
};

/** Next.js answers these itself on every route. */
const ANSWERED_BY_NEXT = ['HEAD', 'OPTIONS'];

export interface MethodRefusal {
  status: number;
  allow: string;
  body: string;
}

/** The 405 for a method the path's API prefix does not serve; undefined when the method is served or the path is no API's. */
export function refuseMethod(method: string, url: string): MethodRefusal | undefined {
  const path = url.split(/[?#]/, 1)[0];
  const prefix = Object.keys(API_METHODS).find((p) => path === p || path.startsWith(`${p}/`));
  if (!prefix) return undefined;
  const served = API_METHODS[prefix];
  if (served.includes(method) || ANSWERED_BY_NEXT.includes(method)) return undefined;
  const allow = served.join(', ');
  const err = new ServiceError('method_not_allowed', `${prefix} answers ${allow}.`);
  return { status: err.status, allow, body: JSON.stringify({ status: 'error', message: err.title, error: err.detail }) };
}

/**
 * The same for a request Node.js's parser refused for its method (`FOO /api/v1/card`),
 * read from the bytes it received; undefined for anything else.
 */
export function refuseUnparsedMethod(rawPacket: Buffer | undefined): MethodRefusal | undefined {
  const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\S{1,8192}) HTTP\/1\.[01]\r?\n/.exec(rawPacket?.subarray(0, 8300).toString('latin1') ?? '');
  return line ? refuseMethod(line[1], line[2]) : undefined;
}

/** A refusal as raw HTTP/1.1, for a socket whose request never reached a handler. */
export function rawRefusal(refusal: MethodRefusal, headers: Iterable<readonly [string, string]>): string {
  const lines = [
    `HTTP/1.1 ${refusal.status} Method Not Allowed`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(refusal.body)}`,
    `allow: ${refusal.allow}`,
    'connection: close',
    ...[...headers].map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${refusal.body}`;
}
