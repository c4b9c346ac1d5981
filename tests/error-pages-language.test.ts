import { describe, expect, inject, it } from 'vitest';

/** A page as a signed-out browser fetches it, asking for one language. */
async function fetchPage(path: string, acceptLanguage: string, method = 'GET') {
  const res = await fetch(`${inject('baseUrl')}${path}`, { method, headers: { 'accept-language': acceptLanguage }, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, lang: /<html lang="([^"]+)"/.exec(text)?.[1] };
}

describe('the error pages speak the reader’s language', () => {
  it('an address no page answers is a 404 page in Amharic or English, as the browser asks', async () => {
    const am = await fetchPage('/no-such-page', 'am-ET,am;q=0.9');
    expect(am.status).toBe(404);
    expect(am.lang).toBe('am');
    expect(am.text).toContain('ገጹ አልተገኘም');
    expect(am.text).toContain('ወደ ዳሽቦርዱ ተመለስ');
    expect(am.text).not.toContain('Page not found');
    const en = await fetchPage('/no-such-page', 'en-US');
    expect(en.status).toBe(404);
    expect(en.lang).toBe('en');
    expect(en.text).toContain('Page not found');
  });

  it('a method a page does not take gets the refusal page, in the browser’s language, with its status', async () => {
    const am = await fetchPage('/login', 'am', 'OPTIONS');
    expect(am.status).toBeGreaterThanOrEqual(400);
    expect(am.status).toBeLessThan(500);
    expect(am.type).toMatch(/^text\/html/);
    expect(am.lang).toBe('am');
    expect(am.text).toContain('ወደ ዳሽቦርዱ ተመለስ');
    expect(am.text).toContain(`(${am.status})`);
    expect(am.text).not.toMatch(/Back to the dashboard|Method not allowed|Request refused/);
    const en = await fetchPage('/login', 'en', 'OPTIONS');
    expect(en.status).toBe(am.status);
    expect(en.lang).toBe('en');
    expect(en.text).toContain('Back to the dashboard');
  });
});
