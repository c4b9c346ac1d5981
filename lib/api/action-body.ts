import { ServiceError } from '../errors';

/** Next.js's own limit for a server action's body (serverActions.bodySizeLimit, left at its default). */
export const MAX_ACTION_BODY_BYTES = 1024 * 1024;
/** Far deeper than any form the dashboard sends; Next.js decodes an action's arguments recursively. */
const MAX_ACTION_DEPTH = 64;
/** Far more fields than any dashboard form posts. */
export const MAX_ACTION_FIELDS = 256;

/**
 * Whether a request may be a server action, whose body Next.js decodes before any of our
 * code runs: a POST to a page with a `next-action` header, or any multipart POST to a page
 * (a form posted without JavaScript names its action inside the body).
 */
export function mayBeServerAction(method: string | undefined, url: string, headers: Record<string, string | string[] | undefined>): boolean {
  if (method !== 'POST' || url.startsWith('/api/')) return false;
  return (
    headers['next-action'] !== undefined ||
    String(headers['content-type'] ?? '')
      .toLowerCase()
      .startsWith('multipart/')
  );
}

/**
 * How deep brackets nest in a JSON-like text, outside strings, stopping past `max`: a walk
 * over the characters, never a parse, so 100,000 levels cost what 100,000 letters do.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The text fields of a multipart body; rejects when the body is not well-formed multipart. */
export type MultipartFields = (body: Buffer, headers: Record<string, string | string[] | undefined>) => Promise<string[]>;

/**
 * Refuses an action body Next.js would answer with a 500 (a stack overflow decoding deep
 * nesting, a multipart parse error): a 400 in the envelope, before Next.js reads it.
 */
export async function checkActionBody(body: Buffer, headers: Record<string, string | string[] | undefined>, fieldsOf: MultipartFields): Promise<void> {
  const multipart = String(headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('multipart/');
  let texts: string[];
  try {
    texts = multipart ? await fieldsOf(body, headers) : [body.toString('utf8')];
  } catch {
    throw new ServiceError('validation_error', {
      body: `The request body is not well-formed multipart/form-data, or has more than ${MAX_ACTION_FIELDS} fields.`,
    });
  }
  if (texts.some((t) => nestsDeeperThan(t, MAX_ACTION_DEPTH))) {
    throw new ServiceError('validation_error', { body: `The request body is nested deeper than ${MAX_ACTION_DEPTH} levels.` });
  }
}

/** A refusal as the envelope's JSON text, for scripts/start.ts to write on a Node.js response. */
export function envelopeOf(err: ServiceError): { status: number; body: string } {
  return { status: err.status, body: JSON.stringify({ status: 'error', message: err.title, error: err.detail }) };
}
