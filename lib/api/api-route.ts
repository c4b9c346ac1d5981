import { timingSafeEqual } from 'node:crypto';
import { getDb, type Db } from '../db/client';
import { ServiceError } from '../errors';
import { sha256Hex } from '../ids';
import { requestFingerprints } from './request-fingerprint';
import { authenticateApiKey, rememberedApiKey, type ApiKeyAuth } from '../keys/api-keys';
import { noteKeyUsed } from '../keys/key-last-used';
import { requireScope } from '../keys/key-scopes';
import type { Actor } from '../actor';
import type { Contract, PublicContract } from './contracts/contract';
import { contractResult, type ContractAnswer } from './contract-result';
import { logger } from '../observability/logger';
import { noteRequestOwner, requestIdOf } from '../observability/request-context';
import { withIdempotency } from './idempotency';
import { requestAddress } from './client-address';
import { adminTokenMatched, limitApiKey, takeAdminTokenAttempt } from './rate-limit';
import { RateLimitedError } from '../rate-limits/token-buckets';
import { readJsonBody } from './read-body';

export interface ApiResult {
  status?: number;
  message: string;
  data: unknown;
}

export interface RouteContext<P> {
  req: Request;
  db: Db;
  params: P;
  query: URLSearchParams;
  /** The parsed JSON body of a POST, PUT or PATCH; undefined for other methods. */
  body: unknown;
  requestId: string;
}

export interface ApiContext<P> extends RouteContext<P> {
  auth: ApiKeyAuth;
  actor: Actor;
}

type NextHandler<P> = (req: Request, ctx: { params: Promise<P> }) => Promise<Response>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  // A declared length lets the server skip compressing small answers, where gzip costs more than it saves.
  return new Response(text, { status, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers } });
}

export function errorResponse(err: unknown, requestId: string): Response {
  if (err instanceof ServiceError) {
    logger.debug({ code: err.code }, 'answered with an error');
    const headers: Record<string, string> = { 'x-request-id': requestId };
    if (err instanceof RateLimitedError) headers['retry-after'] = String(err.retryAfterSeconds);
    // The rest of an oversized body is never read: closing the connection stops the client sending it.
    if (err.code === 'payload_too_large') headers.connection = 'close';
    return json(err.status, { status: 'error', message: err.title, error: err.detail }, headers);
  }
  logger.error({ err, request_id: requestId }, 'unexpected error answered 500');
  return json(
    500,
    {
      status: 'error',
      message: 'Internal server error',
      error: 'Something went wrong on our side; nothing was changed. Quote the request_id when reporting it.',
      request_id: requestId,
    },
    { 'x-request-id': requestId },
  );
}

const holdsNul = (texts: Iterable<string>) => [...texts].some((t) => t.includes('\u0000'));

async function run<P, A>(
  req: Request,
  paramsPromise: Promise<P> | undefined,
  authenticate: (req: Request, db: Db) => Promise<A>,
  inner: (ctx: RouteContext<P>, auth: A, raw: string) => Promise<Response>,
  /** Runs before an error is answered; what it throws is answered instead. */
  beforeError?: (db: Db, err: unknown) => Promise<unknown>,
) {
  const requestId = requestIdOf(req.headers);
  try {
    const db = getDb();
    const auth = await authenticate(req, db);
    const params = ((await paramsPromise) ?? {}) as P;
    // An identifier with a NUL byte names nothing; a query parameter with one is invalid.
    if (holdsNul(Object.values(params as Record<string, string>))) throw new ServiceError('not_found', 'No object has this identifier.');
    const nulParam = [...new URL(req.url).searchParams].find((pair) => holdsNul(pair));
    if (nulParam) throw new ServiceError('validation_error', { [nulParam[0].replaceAll('\u0000', '')]: 'Must not contain the NUL character.' });
    const hasBody = req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH';
    const { raw, body } = hasBody ? await readJsonBody(req) : { raw: '', body: undefined };
    const ctx: RouteContext<P> = { req, db, params, query: new URL(req.url).searchParams, body, requestId };
    const res = await inner(ctx, auth, raw);
    res.headers.set('x-request-id', requestId);
    return res;
  } catch (err) {
    try {
      await beforeError?.(getDb(), err);
    } catch (first) {
      return errorResponse(first, requestId);
    }
    return errorResponse(err, requestId);
  }
}

const envelope = (result: ApiResult) => json(result.status ?? 200, { status: 'success', message: result.message, data: result.data });

export interface ApiRouteOptions<P = Record<string, string>> {
  /**
   * The handler's core call confirms, in the statement that moves the money,
   * that the API key is still usable, and writes nothing otherwise (every
   * payout does). A POST without Idempotency-Key may then act on a key this
   * process found usable before, without reading it first; any error is
   * answered only after the key is read, so a key revoked since gets its
   * 401/403 and nothing else.
   */
  confirmsKey?: boolean;
  /**
   * With an Idempotency-Key, the answer of a request whose transaction committed but whose
   * answer was lost (the process died in between), rebuilt from what the transaction returned.
   */
  replayCommitted?: (ctx: ApiContext<P>, committed: unknown) => Promise<ContractAnswer | undefined>;
  /**
   * With an Idempotency-Key, for a request whose transactions each record their part: the handler
   * that finishes a run that died part way (answers what it committed, does the rest), or undefined
   * when `committed` cannot be resumed. Runs only once the dead run's claim is taken over.
   */
  resumeCommitted?: (ctx: ApiContext<P>, committed: unknown) => (() => Promise<ContractAnswer>) | undefined;
}

/**
 * The REST API's one wrapper: API key, the scope its contract names, mode, body, idempotency, envelope
 * and error mapping. `contract` is the operation this route file serves (lib/api/contracts).
 */
export function apiRoute<P = Record<string, string>>(
  contract: Contract,
  handler: (ctx: ApiContext<P>) => Promise<ContractAnswer>,
  options: ApiRouteOptions<P> = {},
): NextHandler<P> {
  const respond = (answer: ContractAnswer) => envelope(contractResult(contract, answer));
  return (req, { params }) => {
    const authorization = req.headers.get('authorization');
    const remembered = options.confirmsKey && req.method === 'POST' && !req.headers.has('idempotency-key') ? rememberedApiKey(authorization) : undefined;
    return run(
      req,
      params,
      async (_, db) => {
        await limitApiKey(db, authorization);
        const auth = remembered ?? (await authenticateApiKey(db, authorization));
        requireScope(auth.scopes, contract.scope);
        noteRequestOwner(auth.businessId, auth.mode);
        return auth;
      },
      async (ctx, auth, raw) => {
        const apiCtx: ApiContext<P> = { ...ctx, auth, actor: { type: 'api_key', id: String(auth.apiKeyId) } };
        const key = req.headers.get('idempotency-key');
        if (req.method !== 'POST' || key === null) {
          const result = await handler(apiCtx);
          // A remembered key was confirmed by the handler's statement: its use is noted as a lookup would have.
          if (remembered) noteKeyUsed(ctx.db, auth.apiKeyId);
          return respond(result);
        }
        const { fingerprint, legacy } = requestFingerprints(req.method, new URL(req.url).pathname, raw);
        const replay = options.replayCommitted;
        const replayCommitted =
          replay &&
          (async (committed: unknown) => {
            const result = await replay(apiCtx, committed);
            return result && respond(result);
          });
        const answer = async (work: () => Promise<ContractAnswer>) => {
          try {
            return respond(await work());
          } catch (err) {
            if (err instanceof ServiceError) return errorResponse(err, ctx.requestId);
            throw err;
          }
        };
        const resumeCommitted =
          options.resumeCommitted &&
          ((committed: unknown) => {
            const resume = options.resumeCommitted!(apiCtx, committed);
            return resume && (() => answer(resume));
          });
        return withIdempotency(ctx.db, { apiKeyId: auth.apiKeyId, key, fingerprint, legacyFingerprint: legacy, replayCommitted, resumeCommitted }, () =>
          answer(() => handler(apiCtx)),
        );
      },
      // An answer over the rate limit stays free of database work, whatever the key.
      remembered && (async (db, err) => err instanceof RateLimitedError || (await authenticateApiKey(db, authorization))),
    );
  };
}

/** An operation of `/api/v1` served without a key (documentation): the handler as it is, tied to its contract. */
export const publicRoute = (_contract: PublicContract, handler: (req: Request) => Response): ((req: Request) => Response) => handler;

function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(sha256Hex(given));
  const b = Buffer.from(sha256Hex(expected));
  return timingSafeEqual(a, b);
}

/** The provider back office: `Authorization: Bearer {ADMIN_TOKEN}`. */
export function adminRoute<P = Record<string, string>>(handler: (ctx: RouteContext<P> & { actor: Actor }) => Promise<ApiResult>): NextHandler<P> {
  return (req, { params }) =>
    run(
      req,
      params,
      async (r, db) => {
        const address = requestAddress(r.headers);
        await takeAdminTokenAttempt(db, address);
        const expected = process.env.ADMIN_TOKEN;
        const match = /^Bearer\s+(\S+)\s*$/i.exec(r.headers.get('authorization') ?? '');
        if (!expected || !match || !tokenMatches(match[1], expected)) {
          throw new ServiceError('unauthorized', 'Send the back office token as Authorization: Bearer <ADMIN_TOKEN>.');
        }
        await adminTokenMatched(db, address);
        return { type: 'admin', id: 'admin' } satisfies Actor;
      },
      async (ctx, actor) => envelope(await handler({ ...ctx, actor })),
    );
}

/**
 * A business's shop orders (`/api/shop/{slug}/orders`): no key, anyone may call it, so it answers with what the
 * slug and the order reference open and nothing else, and sends no Referer on from it (CONTRACT 4a).
 */
export function shopRoute<P = Record<string, string>>(handler: (ctx: RouteContext<P> & { address: string }) => Promise<ApiResult>): NextHandler<P> {
  return async (req, { params }) => {
    const res = await run(
      req,
      params,
      async (r) => requestAddress(r.headers),
      async (ctx, address) => envelope(await handler({ ...ctx, address })),
    );
    res.headers.set('referrer-policy', 'no-referrer');
    res.headers.set('cache-control', 'no-store');
    return res;
  };
}

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Fallbacks = Record<(typeof HTTP_METHODS)[number], (req: Request) => Response>;

const fallbacks = (answer: (req: Request) => Response): Fallbacks => Object.fromEntries(HTTP_METHODS.map((m) => [m, answer])) as Fallbacks;

/**
 * The methods a route file does not serve, answering 405 in the envelope instead of
 * Next.js's bare 405: `export const { PUT, PATCH, DELETE } = methodsNotAllowed('GET, POST');`
 */
export function methodsNotAllowed(allow: string): Fallbacks {
  return fallbacks((req) => {
    const res = errorResponse(new ServiceError('method_not_allowed', `This path answers ${allow}.`), requestIdOf(req.headers));
    res.headers.set('allow', allow);
    return res;
  });
}

/** Every method of a path no route serves: 404 in the envelope. */
export const unknownPath = (): Fallbacks =>
  fallbacks((req) =>
    errorResponse(new ServiceError('not_found', `Nothing is served at ${req.method} ${new URL(req.url).pathname}.`), requestIdOf(req.headers)),
  );
