import { errorResponse } from '../api/api-route';
import { readBodyBytes } from '../api/read-body';
import { ServiceError } from '../errors';
import { requestIdOf } from '../observability/request-context';
import { CLEAR_CALLBACK_COOKIES, holdsBadCallbackCookie, isHttpTarget } from './callback-cookie';

/** The sign-in form is a few hundred bytes. */
const MAX_AUTH_BODY_BYTES = 16 * 1024;

/**
 * What next-auth answers with a 500 is refused here with a 400 in the envelope: a
 * callbackUrl that is not an http(s) address, and a POST body that is not the
 * sign-in form (next-auth's own client sends only forms), and a credentials callback
 * that is not a POST (next-auth has no GET for it). The body is read within
 * a small limit and handed on as text.
 */
export async function guardAuthRequest(req: Request, handle: (form: string | undefined) => Promise<Response>): Promise<Response> {
  const requestId = requestIdOf(req.headers);
  try {
    const url = new URL(req.url);
    if (req.method !== 'POST' && /^\/api\/auth\/callback\/credentials\/?$/.test(url.pathname)) {
      throw new ServiceError('method_not_allowed', 'Sign in by POSTing the sign-in form here.');
    }
    const callbackUrl = url.searchParams.get('callbackUrl');
    if (callbackUrl !== null && !isHttpTarget(callbackUrl)) {
      throw new ServiceError('validation_error', { callbackUrl: 'callbackUrl must be a path of this site.' });
    }
    if (holdsBadCallbackCookie(req.headers.get('cookie'))) {
      const res = errorResponse(
        new ServiceError('validation_error', { callbackUrl: 'The stored callback address was not a path of this site; it has been cleared.' }),
        requestId,
      );
      for (const clear of CLEAR_CALLBACK_COOKIES) res.headers.append('set-cookie', clear);
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
