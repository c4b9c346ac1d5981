import { readStreamCapped } from '../../read-stream';
import { answerMessage, answerStatus, type ChapaBody } from './chapa-answers';
import type { ChapaConfig } from './config';

export interface ChapaRequest {
  method: 'GET' | 'POST';
  /** Path under CHAPA_BASE_URL, e.g. `/transaction/verify/pay_...` (callers encode path segments). */
  path: string;
  body?: unknown;
  timeoutMs?: number;
}

/**
 * What one call came to:
 * - `ok`: a 2xx whose body does not say `"status": "failed"`;
 * - `refused`: Chapa read the request and said no (4xx other than 429, or a 2xx saying failed): do not retry as is;
 * - `unavailable`: no answer we can rely on (timeout, network error, 5xx, 429, unreadable body): safe to retry later.
 */
export type ChapaOutcome =
  | { kind: 'ok'; httpStatus: number; body: ChapaBody }
  | { kind: 'refused'; httpStatus: number; message: string; body: ChapaBody }
  | { kind: 'unavailable'; httpStatus: number | null; reason: string };

/** Answers are small JSON; a larger one is cut off rather than read into memory. */
const MAX_ANSWER_BYTES = 1024 * 1024;

async function readCapped(res: Response): Promise<string | null> {
  const bytes = await readStreamCapped(res.body, MAX_ANSWER_BYTES);
  return bytes === null ? null : bytes.toString('utf8');
}

/** The one way this app calls Chapa: JSON, Bearer secret key, bounded in time and size. */
export async function callChapa(config: ChapaConfig, req: ChapaRequest): Promise<ChapaOutcome> {
  const timeoutMs = req.timeoutMs ?? config.timeoutMs;
  let res: Response;
  let text: string | null;
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    res = await fetch(`${config.baseUrl}${req.path}`, {
      method: req.method,
      headers: {
        authorization: `Bearer ${config.secretKey}`,
        accept: 'application/json',
        ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
      redirect: 'error',
      signal,
    });
    text = await readCapped(res);
  } catch (err) {
    const name = (err as Error)?.name;
    const reason = name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs} ms` : `network error: ${(err as Error)?.message ?? err}`;
    return { kind: 'unavailable', httpStatus: null, reason };
  }
  if (res.status >= 500 || res.status === 429) return { kind: 'unavailable', httpStatus: res.status, reason: `Chapa answered ${res.status}` };
  if (text === null) return { kind: 'unavailable', httpStatus: res.status, reason: 'answer larger than 1 MB' };
  let body: ChapaBody = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as ChapaBody;
    else if (res.ok) return { kind: 'unavailable', httpStatus: res.status, reason: 'answer was not a JSON object' };
  } catch {
    if (res.ok) return { kind: 'unavailable', httpStatus: res.status, reason: 'answer was not JSON' };
  }
  const status = answerStatus(body);
  if (res.ok && status !== 'failed' && status !== 'error') return { kind: 'ok', httpStatus: res.status, body };
  return { kind: 'refused', httpStatus: res.status, message: answerMessage(body) ?? `Chapa answered ${res.status}`, body };
}
