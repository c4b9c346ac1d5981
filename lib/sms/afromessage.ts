/**
 * AfroMessage's send call (`{base}/api/send`), the one SMS provider: what it answered, as the message job needs it.
 * Configured by AFROMESSAGE_TOKEN (without it there is no live SMS), AFROMESSAGE_IDENTIFIER_ID, AFROMESSAGE_SENDER and
 * AFROMESSAGE_BASE_URL. It takes no idempotency key: a send whose answer never came may have gone out.
 */
export interface AfroMessageConfig {
  token: string;
  identifierId: string;
  sender: string;
  baseUrl: string;
  timeoutMs: number;
  /** GET (the query string) or POST (a JSON body): AfroMessage takes both. */
  method: 'GET' | 'POST';
}

export function afroMessageConfig(env: Record<string, string | undefined> = process.env): AfroMessageConfig | undefined {
  if (!env.AFROMESSAGE_TOKEN) return undefined;
  const timeout = Number(env.AFROMESSAGE_TIMEOUT_MS);
  return {
    token: env.AFROMESSAGE_TOKEN,
    identifierId: env.AFROMESSAGE_IDENTIFIER_ID ?? '',
    sender: env.AFROMESSAGE_SENDER ?? '',
    baseUrl: (env.AFROMESSAGE_BASE_URL || 'https://api.afromessage.com').replace(/\/$/, ''),
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 10_000,
    method: env.AFROMESSAGE_METHOD?.toUpperCase() === 'GET' ? 'GET' : 'POST',
  };
}

export interface SmsRequest {
  to: string;
  message: string;
  callback: string;
}

/**
 * accepted: it took the message. refused: a final no (`acknowledge: error`, a 4xx), in its own words.
 * unavailable: 5xx or 429, nothing sent; try again later. unknown: no answer (a timeout, a dropped connection):
 * the message may have gone out.
 */
export type SmsOutcome =
  | { kind: 'accepted'; messageId: string | null; status: string | null }
  | { kind: 'refused'; error: string }
  | { kind: 'unavailable'; error: string }
  | { kind: 'unknown'; error: string };

const errorWords = (body: unknown): string => {
  const response = (body as { response?: unknown } | null)?.response;
  const errors = (response as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors) && errors.length > 0) return errors.map(String).join('; ');
  if (typeof response === 'string') return response;
  return JSON.stringify(body ?? null).slice(0, 300);
};

export async function sendSms(config: AfroMessageConfig, req: SmsRequest): Promise<SmsOutcome> {
  const fields = { from: config.identifierId, sender: config.sender, to: req.to, message: req.message, callback: req.callback };
  const url = new URL(`${config.baseUrl}/api/send`);
  if (config.method === 'GET') for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: config.method,
      headers: { authorization: `Bearer ${config.token}`, ...(config.method === 'POST' && { 'content-type': 'application/json' }) },
      body: config.method === 'POST' ? JSON.stringify(fields) : undefined,
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    text = await res.text();
  } catch (err) {
    return { kind: 'unknown', error: `AfroMessage did not answer: ${(err as Error).message}` };
  }
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text.slice(0, 300);
  }
  // 429 and 503 say the message was not taken; any other 5xx may come from a gateway after AfroMessage took it.
  if (res.status === 429 || res.status === 503) return { kind: 'unavailable', error: `AfroMessage answered ${res.status}` };
  if (res.status >= 500) return { kind: 'unknown', error: `AfroMessage answered ${res.status}` };
  if (res.status !== 200) return { kind: 'refused', error: `AfroMessage answered ${res.status}: ${errorWords(body)}` };
  const ack = (body as { acknowledge?: unknown } | null)?.acknowledge;
  if (ack === 'success') {
    const response = ((body as { response?: Record<string, unknown> }).response ?? {}) as Record<string, unknown>;
    const id = response.message_id;
    return {
      kind: 'accepted',
      messageId: id === undefined || id === null ? null : String(id).slice(0, 100),
      status: typeof response.status === 'string' ? response.status : null,
    };
  }
  if (ack === 'error') return { kind: 'refused', error: errorWords(body) };
  // A 200 we cannot read: it may have been taken.
  return { kind: 'unknown', error: `AfroMessage answered 200 without an acknowledge: ${String(text).slice(0, 200)}` };
}
