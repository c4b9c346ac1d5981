/**
 * Whether a request target's path decodes: a malformed escape such as `%E0%A4%A`
 * names no page or resource, and Next.js would answer it with a bare 500.
 */
export function pathDecodes(url: string): boolean {
  const end = url.search(/[?#]/);
  try {
    decodeURIComponent(end < 0 ? url : url.slice(0, end));
    return true;
  } catch {
    return false;
  }
}

/** The envelope a malformed path gets: 400, said plainly. */
export const MALFORMED_PATH_BODY = JSON.stringify({
  status: 'error',
  message: 'Invalid request',
  error: 'The address holds a malformed percent-encoding.',
});
