import { AsyncLocalStorage } from 'node:async_hooks';
import { newRequestId } from '../ids';
import { holdsSecret } from './scrub';

/** What every log line of one request carries; the API wrapper fills in the business and mode once the key is known. */
export interface RequestContext {
  id: string;
  businessId?: number;
  mode?: string;
}

// One store for the custom server and Next.js's bundle of this module, which is a second copy of it.
const global = globalThis as unknown as { __giftcardRequests?: AsyncLocalStorage<RequestContext> };
global.__giftcardRequests ??= new AsyncLocalStorage<RequestContext>();
const store = global.__giftcardRequests;

const SANE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The client's X-Request-Id when it is a sane token, else a new id; one quoting a key or a card number is never logged, so it is replaced too. */
export function requestIdFrom(header: string | string[] | null | undefined): string {
  return typeof header === 'string' && SANE_ID.test(header) && !holdsSecret(header) ? header : newRequestId();
}

export const runInRequest = <T>(context: RequestContext, fn: () => T): T => store.run(context, fn);

export const currentRequest = (): RequestContext | undefined => store.getStore();

/** Runs fn outside any request: an event of a connection a request once opened (a pool's idle client) is not that request's. */
export const outsideRequest = <T>(fn: () => T): T => store.exit(fn);

/** The request's id: the one the server gave it, else (outside the custom server) taken from the header or made. */
export const requestIdOf = (headers: Headers): string => store.getStore()?.id ?? requestIdFrom(headers.get('x-request-id'));

/** Names the business and mode the request acts for, for its log line. */
export function noteRequestOwner(businessId: number, mode: string): void {
  const context = store.getStore();
  if (context) {
    context.businessId = businessId;
    context.mode = mode;
  }
}
