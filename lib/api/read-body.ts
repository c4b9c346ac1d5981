import { ServiceError } from '../errors';
import { readStreamCapped } from '../read-stream';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Deeper than any body the API takes; a client-controlled depth must never reach a recursive walk. */
export const MAX_JSON_DEPTH = 32;

const tooLarge = (limit: number) =>
  new ServiceError('payload_too_large', `The request body is larger than ${limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MB` : `${limit / 1024} KB`}.`);

/**
 * The body's bytes, counted as they arrive: past `limit` the stream is cancelled
 * and nothing more is read or kept, whatever Content-Length said (or did not say).
 */
export async function readBodyBytes(req: Request, limit = MAX_BODY_BYTES): Promise<Buffer> {
  if (Number(req.headers.get('content-length') ?? 0) > limit) {
    await req.body?.cancel().catch(() => {});
    throw tooLarge(limit);
  }
  const bytes = await readStreamCapped(req.body, limit);
  if (bytes === null) throw tooLarge(limit);
  return bytes;
}

/**
 * Walks a parsed body without recursion: refuses nesting past MAX_JSON_DEPTH and
 * text holding a NUL byte (PostgreSQL text cannot store one, so it is refused at the door).
 */
export function checkJsonShape(value: unknown): void {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw nulError();
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= MAX_JSON_DEPTH) throw new ServiceError('validation_error', { body: `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.` });
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) throw nulError();
        stack.push({ v: x, depth: depth + 1 });
      }
    }
  }
}

const nulError = () => new ServiceError('validation_error', { body: 'Text must not contain the NUL character (\\u0000).' });

/** A JSON object body: empty means `{}`; anything else that is not an object is a validation error. */
export async function readJsonBody(req: Request): Promise<{ raw: string; body: unknown }> {
  const raw = (await readBodyBytes(req)).toString('utf8');
  if (raw.trim() === '') return { raw, body: {} };
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new ServiceError('validation_error', { body: 'The request body is not valid JSON.' });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ServiceError('validation_error', { body: 'The request body must be a JSON object.' });
  }
  checkJsonShape(body);
  return { raw, body };
}
