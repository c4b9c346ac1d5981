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

/** A multipart field: its name, and its text (null for a file). */
export interface MultipartField {
  name: string;
  text: string | null;
}

/** The fields of a multipart body; rejects when the body is not well-formed multipart. */
export type MultipartFields = (body: Buffer, headers: Record<string, string | string[] | undefined>) => Promise<MultipartField[]>;

/**
 * Refuses an action body Next.js would answer with a 500 (a stack overflow decoding deep
 * nesting, a multipart parse error, references between fields that lead nowhere): a 400 in
 * the envelope, before Next.js reads it.
 */
export async function checkActionBody(body: Buffer, headers: Record<string, string | string[] | undefined>, fieldsOf: MultipartFields): Promise<void> {
  const multipart = String(headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('multipart/');
  let fields: MultipartField[];
  try {
    fields = multipart ? await fieldsOf(body, headers) : [{ name: '0', text: body.toString('utf8') }];
  } catch {
    throw new ServiceError('validation_error', {
      body: `The request body is not well-formed multipart/form-data, or has more than ${MAX_ACTION_FIELDS} fields.`,
    });
  }
  if (fields.some((f) => f.text !== null && nestsDeeperThan(f.text, MAX_ACTION_DEPTH))) {
    throw new ServiceError('validation_error', { body: `The request body is nested deeper than ${MAX_ACTION_DEPTH} levels.` });
  }
  // A form posted without JavaScript names its action in the body and is decoded another way, which Next.js refuses itself.
  if (multipart && headers['next-action'] !== undefined) {
    const broken = brokenReference(fields);
    if (broken) throw new ServiceError('validation_error', { body: broken });
  }
}

/** "$<hex>" and "$<tag><hex>" name another field of a multipart action body by number: these tags name a file. */
const FILE_TAGS = new Set('AOoUSsLlGgMmVB');
/** Tags that name no other field. */
const VALUE_TAGS = new Set('$IN-uDnHTK');

/** The field numbers a field's JSON refers to, with whether each must be a file; undefined when the field is not JSON. */
function referencesOf(text: string): { id: string; file: boolean }[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const found: { id: string; file: boolean }[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      if (v.length < 2 || v[0] !== '$' || VALUE_TAGS.has(v[1])) return;
      const tagged = !/[0-9a-f]/.test(v[1]);
      found.push({ id: String(Number.parseInt(v.slice(tagged ? 2 : 1).split(':')[0], 16)), file: FILE_TAGS.has(v[1]) });
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return found;
}

/**
 * What is wrong with the references between an action body's fields (React decodes them
 * before any of our code runs, and answers a reference to a missing field, a file that is
 * text, or a loop of references with a 500), or undefined.
 */
function brokenReference(fields: MultipartField[]): string | undefined {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const edges = new Map<string, string[]>();
  for (const field of fields) {
    if (field.text === null) continue;
    const refs = referencesOf(field.text) ?? [];
    for (const ref of refs) {
      const target = byName.get(ref.id);
      if (!target) return `Field ${field.name} refers to field ${ref.id}, which the body does not have.`;
      if (ref.file !== (target.text === null)) return `Field ${field.name} refers to field ${ref.id} as ${ref.file ? 'a file' : 'a value'}, which it is not.`;
    }
    edges.set(
      field.name,
      refs.filter((r) => !r.file).map((r) => r.id),
    );
  }
  // Depth-first, iteratively: a field met again while its own references are being followed closes a loop.
  const state = new Map<string, 'open' | 'done'>();
  for (const start of edges.keys()) {
    if (state.has(start)) continue;
    const stack: { name: string; next: number }[] = [{ name: start, next: 0 }];
    state.set(start, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1];
      const out = edges.get(top.name) ?? [];
      if (top.next === out.length) {
        state.set(top.name, 'done');
        stack.pop();
        continue;
      }
      const to = out[top.next++];
      if (state.get(to) === 'open') return `Field ${to} refers back to itself through other fields.`;
      if (!state.has(to)) {
        state.set(to, 'open');
        stack.push({ name: to, next: 0 });
      }
    }
  }
  return undefined;
}

/** A refusal as the envelope's JSON text, for scripts/start.ts to write on a Node.js response. */
export function envelopeOf(err: ServiceError): { status: number; body: string } {
  return { status: err.status, body: JSON.stringify({ status: 'error', message: err.title, error: err.detail }) };
}
