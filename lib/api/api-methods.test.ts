import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './action-body';
import { API_METHODS, refuseMethod, refuseUnparsedMethod } from './api-methods';

describe('refuseMethod', () => {
  it('refuses on each API prefix only the methods its table does not list, with that Allow', () => {
    for (const [prefix, served] of Object.entries(API_METHODS)) {
      for (const method of served) expect(refuseMethod(method, `${prefix}/x`)).toBeUndefined();
      expect(refuseMethod('TRACE', `${prefix}/x?y=1`)).toMatchObject({ status: 405, allow: served.join(', ') });
      expect(JSON.parse(refuseMethod('PROPFIND', prefix)!.body)).toMatchObject({ status: 'error', message: 'Method not allowed' });
    }
    expect(refuseMethod('HEAD', '/api/webhooks/x')).toBeUndefined();
    expect(refuseMethod('TRACE', '/api/v1x')).toMatchObject({ status: 405, allow: 'GET, POST', contentType: expect.stringContaining('json') });
  });

  it('refuses elsewhere what Next.js does not route: a page on pages and dashboard routes, a bare 405 on static files', () => {
    for (const method of ['GET', 'POST', 'HEAD', 'OPTIONS']) expect(refuseMethod(method, '/cards?x=1')).toBeUndefined();
    for (const method of ['PUT', 'PATCH', 'DELETE']) expect(refuseMethod(method, '/cards?x=1')).toMatchObject({ status: 405, allow: 'GET, POST' });
    expect(refuseMethod('TRACE', '/payouts/export')).toMatchObject({ status: 405, allow: 'GET, POST', contentType: expect.stringContaining('html') });
    expect(refuseMethod('PROPFIND', '/cards')!.body).toContain('<h1>Method not allowed</h1>');
    const isStatic = (p: string) => p === '/favicon.ico';
    expect(refuseMethod('GET', '/favicon.ico', isStatic)).toBeUndefined();
    for (const method of ['POST', 'PUT', 'TRACE', 'OPTIONS'])
      expect(refuseMethod(method, '/favicon.ico', isStatic)).toMatchObject({ status: 405, allow: 'GET, HEAD', body: '' });
    expect(refuseMethod('DELETE', '/_next/static/chunks/x.js')).toMatchObject({ status: 405, allow: 'GET, HEAD' });
  });

  it('reads the method and path of a request the parser refused', () => {
    expect(refuseUnparsedMethod(Buffer.from('FOO /api/admin/businesses HTTP/1.1\r\nhost: x\r\n\r\n'))).toMatchObject({ status: 405 });
    expect(refuseUnparsedMethod(Buffer.from('FOO /login HTTP/1.1\r\n\r\n'))).toMatchObject({ status: 405, contentType: expect.stringContaining('html') });
    expect(refuseUnparsedMethod(Buffer.from('\u0000garbage'))).toBeUndefined();
    expect(refuseUnparsedMethod(undefined)).toBeUndefined();
  });
});

describe('nestsDeeperThan', () => {
  it('counts brackets outside strings, without recursion, at any depth', () => {
    expect(nestsDeeperThan(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 64)).toBe(true);
    expect(nestsDeeperThan(`${'{"a":'.repeat(64)}1${'}'.repeat(64)}`, 64)).toBe(false);
    expect(nestsDeeperThan(`["${'['.repeat(1000)}"]`, 64)).toBe(false);
    expect(nestsDeeperThan(`["\\"${'['.repeat(1000)}"]`, 64)).toBe(false);
  });
});
