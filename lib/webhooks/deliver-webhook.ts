import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ServiceError } from '../errors';
import type { Mode } from '../validation';
import { USER_AGENT } from './signing';
import { resolveWebhookTarget } from './url-guard';

export const DEFAULT_TIMEOUT_MS = 15_000;
const EXCERPT_CHARS = 1000;
const MAX_READ_BYTES = 64 * 1024;

/**
 * The deliveries a worker may have in flight by default, and the sockets an
 * agent may open to one host: as many, so no delivery waits for a socket while
 * its timeout runs (many businesses' endpoints may sit behind one relay host).
 */
export const MAX_DELIVERIES_IN_FLIGHT = 512;

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: MAX_DELIVERIES_IN_FLIGHT }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: MAX_DELIVERIES_IN_FLIGHT }),
};

export interface DeliverWebhookOptions {
  url: string;
  mode: Mode;
  /** Check the resolved address against the SSRF rules (every business URL; not our own dashboard endpoint). */
  guard: boolean;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs?: number;
  /** Keep the whole reply (up to 64 KB) in responseBody, not only its excerpt: a batch's answer. */
  keepBody?: boolean;
}

export interface DeliveryAttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  /** From Retry-After, when the receiver sent one. */
  retryAfterMs: number | null;
  /** The reply as read, when keepBody asked for it. */
  responseBody?: string;
  /**
   * The reply or network error came from a business's endpoint at an address not
   * public: a loopback name test mode allows. Its detail is the server's own
   * network, never the business's to read.
   */
  nonPublic: boolean;
}

/** Retry-After as delta-seconds or an HTTP date. */
function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d{1,9}$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * One POST of a webhook: the address is checked at this moment and the socket
 * is opened to that same address; redirects are not followed (a 3xx is a
 * failure); the whole attempt is cut at the timeout.
 */
export async function deliverWebhook(o: DeliverWebhookOptions): Promise<DeliveryAttemptResult> {
  const started = performance.now();
  let nonPublic = false;
  const done = (r: Omit<DeliveryAttemptResult, 'durationMs' | 'nonPublic'>): DeliveryAttemptResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
    nonPublic,
  });
  let url: URL;
  let lookup: LookupFunction | undefined;
  try {
    if (o.guard) {
      const target = await resolveWebhookTarget(o.url, o.mode);
      url = target.url;
      if (target.address) lookup = pinnedLookup(target.address, target.family ?? 4);
      nonPublic = !target.public;
    } else {
      // Our own dashboard endpoint: its attempts are never shown to a business (the delivery log and the
      // events API read the business's own endpoint only), so its outcome is kept as is.
      url = new URL(o.url);
    }
  } catch (err) {
    const reason = err instanceof ServiceError && typeof err.detail === 'object' ? Object.values(err.detail).join(' ') : 'invalid URL';
    return done({ ok: false, statusCode: null, error: `refused: ${reason}`, responseExcerpt: null, retryAfterMs: null });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return done({ ok: false, statusCode: null, error: 'refused: unsupported protocol', responseExcerpt: null, retryAfterMs: null });
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<DeliveryAttemptResult, 'durationMs' | 'nonPublic'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const req = transport.request(url, {
      method: 'POST',
      agent: agents[url.protocol as 'http:' | 'https:'],
      lookup,
      headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...o.headers, 'content-length': String(o.body.length) },
    });
    const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = setTimeout(() => {
      req.destroy();
      finish({ ok: false, statusCode: null, error: `timed out after ${timeoutMs} ms`, responseExcerpt: null, retryAfterMs: null });
    }, timeoutMs);
    req.on('error', (err) => finish({ ok: false, statusCode: null, error: err.message || String(err), responseExcerpt: null, retryAfterMs: null }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const status = res.statusCode ?? 0;
      const complete = () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const excerpt = text.slice(0, EXCERPT_CHARS);
        const ok = status >= 200 && status < 300;
        const error = ok ? null : status >= 300 && status < 400 ? `redirect to ${res.headers.location ?? '(none)'} not followed` : `HTTP ${status}`;
        const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(res.headers['retry-after']) : null;
        finish({ ok, statusCode: status, error, responseExcerpt: excerpt || null, retryAfterMs, ...(o.keepBody ? { responseBody: text } : {}) });
      };
      res.on('data', (chunk: Buffer) => {
        if (size < MAX_READ_BYTES) chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_READ_BYTES) {
          complete();
          res.destroy();
        }
      });
      res.on('end', complete);
      res.on('error', complete);
    });
    req.end(o.body);
  });
}
