import { errorResponse } from '../api/api-route';
import { readBodyBytes } from '../api/read-body';
import { ServiceError } from '../errors';
import { requestIdOf } from '../observability/request-context';

/** The sign-in form is a few hundred bytes. */
const MAX_AUTH_BODY_BYTES = 16 * 1024;
const CALLBACK_COOKIES = ['next-auth.callback-url', '__Secure-next-auth.callback-url'];

/** A path of this site, or an http(s) URL (next-auth's redirect callback then keeps only our own origin). */
function isHttpTarget(value: string): boolean {
  if (value.startsWith('/')) return true;
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

function cookieValues(header: string | null, names: string[]): (string | null)[] {
  return (header ?? '')
    .split(';')
    .map((c) => c.trim().split('='))
    .filter(([name]) => names.includes(name))
    .map(([, ...value]) => decodedOrNull(value.join('=')));
}

/** A cut or invalid escape (`%E0%A4%A`) decodes to nothing: a bad stored address like any other. */
function decodedOrNull(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * What next-auth answers with a 500 is refused here with a 400 in the envelope: a
 * callbackUrl that is not an http(s) address, and a POST body that is not the
 * sign-in form (next-auth's own client sends only forms). The body is read within
 * a small limit and handed on as text.
 */
export async function guardAuthRequest(req: Request, handle: (form: string | undefined) => Promise<Response>): Promise<Response> {
  const requestId = requestIdOf(req.headers);
  try {
    const callbackUrl = new URL(req.url).searchParams.get('callbackUrl');
    if (callbackUrl !== null && !isHttpTarget(callbackUrl)) {
      throw new ServiceError('validation_error', { callbackUrl: 'callbackUrl must be a path of this site.' });
    }
    if (cookieValues(req.headers.get('cookie'), CALLBACK_COOKIES).some((v) => v === null || !isHttpTarget(v))) {
      const res = errorResponse(
        new ServiceError('validation_error', { callbackUrl: 'The stored callback address was not a path of this site; it has been cleared.' }),
        requestId,
      );
      for (const name of CALLBACK_COOKIES) res.headers.append('set-cookie', `${name}=; Path=/; Max-Age=0`);
      return res;
    }
    if (req.method !== 'POST') return await handle(undefined);
    if (!(req.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      throw new ServiceError('validation_error', { body: 'Send the form as application/x-www-form-urlencoded.' });
    }
    return await handle((await readBodyBytes(req, MAX_AUTH_BODY_BYTES)).toString('utf8'));
  } catch (err) {
    return errorResponse(err, requestId);
  }
}
