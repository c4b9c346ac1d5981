/** Where next-auth keeps the address to return to after sign-in (the second name on https). */
const CALLBACK_COOKIES = ['next-auth.callback-url', '__Secure-next-auth.callback-url'];

/** The header that clears each of them. */
export const CLEAR_CALLBACK_COOKIES = CALLBACK_COOKIES.map((name) => `${name}=; Path=/; Max-Age=0`);

/** A path of this site, or an http(s) URL (next-auth's redirect callback then keeps only our own origin). */
export function isHttpTarget(value: string): boolean {
  if (value.startsWith('/')) return true;
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** A cut or invalid escape (`%E0%A4%A`) decodes to nothing: a bad stored address like any other. */
function decodedOrNull(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

const isCallbackCookie = (pair: string) => CALLBACK_COOKIES.includes(pair.trim().split('=', 1)[0]);

/** Whether a Cookie header holds a stored callback address next-auth would refuse with a 500 (javascript:…, a:b, a bad escape). */
export function holdsBadCallbackCookie(header: string | null | undefined): boolean {
  return (header ?? '')
    .split(';')
    .filter(isCallbackCookie)
    .some((pair) => {
      const value = decodedOrNull(pair.slice(pair.indexOf('=') + 1).trim());
      return value === null || !isHttpTarget(value);
    });
}

/** The Cookie header without its callback cookies. */
export const withoutCallbackCookies = (header: string): string =>
  header
    .split(';')
    .filter((pair) => pair.trim() && !isCallbackCookie(pair))
    .map((pair) => pair.trim())
    .join('; ');
