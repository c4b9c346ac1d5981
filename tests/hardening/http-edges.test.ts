import { once } from 'node:events';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminClient, apiClient, createCard, createTestBusiness, type TestBusiness } from '../helpers';
import { pidListeningOn, residentMb } from '../process-memory';
import { startTestServer, type TestServer } from '../test-server';
import { fillRoute, listApiRoutes } from './route-list';

const MB = 1024 * 1024;

/**
 * Streams up to `totalMb` of a chunked body (no Content-Length) over a raw socket and
 * reads the answer as it arrives, so a server that answers and closes mid-upload is
 * seen answering (an HTTP client library may report only its failed write). Reports
 * how much had been handed to the socket when the answer came, and the server's peak memory.
 */
async function streamBody(baseUrl: string, path: string, headers: Record<string, string>, totalMb: number, serverPid: number) {
  const url = new URL(path, baseUrl);
  const socket = net.connect(Number(url.port), url.hostname);
  await once(socket, 'connect');
  let received = '';
  let closed = false;
  let sentAtAnswer: number | undefined;
  let sent = 0;
  let peakRssMb = residentMb(serverPid);
  socket.on('data', (d) => {
    received += d;
    sentAtAnswer ??= sent;
  });
  // Writing on after the server's 413 and close fails with EPIPE or ECONNRESET: that is the point.
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
  });
  const head = Object.entries({ ...headers, host: url.host, 'content-type': 'application/json', 'transfer-encoding': 'chunked' })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head}\r\n`);
  const chunk = Buffer.concat([Buffer.from(`${(64 * 1024).toString(16)}\r\n`), Buffer.alloc(64 * 1024, 0x61), Buffer.from('\r\n')]);
  while (!closed && sentAtAnswer === undefined && sent < totalMb * MB) {
    sent += 64 * 1024;
    const flushed = socket.write(chunk);
    if (sent % (4 * MB) === 0) peakRssMb = Math.max(peakRssMb, residentMb(serverPid));
    // Give the event loop a turn, so an answer that arrived is read before more is written.
    await new Promise<void>((resolve) => {
      if (flushed) return void setImmediate(resolve);
      socket.once('drain', resolve);
      socket.once('close', resolve);
    });
  }
  if (!closed) socket.end('0\r\n\r\n');
  await new Promise<void>((resolve) => {
    if (closed) return resolve();
    socket.once('close', resolve);
    setTimeout(resolve, 5_000);
  });
  socket.destroy();
  const [answerHead, body = ''] = received.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answerHead)?.[1] ?? 0),
    connection: /\r\nconnection: *([^\r]+)/i.exec(answerHead)?.[1]?.toLowerCase(),
    body: body.replace(/^[0-9a-f]+\r\n/i, ''),
    sentMbAtAnswer: (sentAtAnswer ?? sent) / MB,
    peakRssMb: Math.max(peakRssMb, residentMb(serverPid)),
  };
}

let biz: TestBusiness;
beforeAll(async () => {
  biz = await createTestBusiness('HTTP edges');
});

describe('request bodies are counted as they arrive', () => {
  it('refuses a 256 MB chunked body to the webhook receiver and the API early, without growing the server', async () => {
    const baseUrl = inject('baseUrl');
    const pid = pidListeningOn(Number(new URL(baseUrl).port));
    const before = residentMb(pid);
    const targets = [
      { path: '/api/webhooks/whk_anything', headers: {} as Record<string, string> },
      { path: '/api/v1/card', headers: { authorization: `Bearer ${biz.keys.test}` } },
      { path: '/api/admin/businesses', headers: { authorization: `Bearer ${inject('adminToken')}` } },
    ];
    for (const target of targets) {
      const result = await streamBody(baseUrl, target.path, target.headers, 256, pid);
      console.log(
        `${target.path}: ${result.status} after ${result.sentMbAtAnswer.toFixed(1)} MB sent; resident ${before.toFixed(0)} MB before, ${result.peakRssMb.toFixed(0)} MB at most`,
      );
      expect(result.status, target.path).toBe(413);
      expect(result.body).toContain('"message":"Payload too large"');
      expect(result.connection).toBe('close');
      expect(result.sentMbAtAnswer, target.path).toBeLessThan(32);
      expect(result.peakRssMb - before, `${target.path}: resident memory before ${before.toFixed(0)} MB, peak ${result.peakRssMb.toFixed(0)} MB`).toBeLessThan(
        64,
      );
    }
  }, 120_000);

  it('answers 20,000-deep JSON with 400 Validation error on the API and the back office, and creates nothing', async () => {
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const api = await biz.test.post('/api/v1/card', undefined, { raw: deep });
    expect(api.status).toBe(400);
    expect(api.body).toMatchObject({ status: 'error', message: 'Validation error', error: { body: expect.stringContaining('nested deeper') } });
    const admin = await adminClient().post('/api/admin/businesses', undefined, { raw: `{"name":"x","meta":${deep}}` });
    expect(admin.status).toBe(400);
    expect((await biz.test.get('/api/v1/card')).body.data.total).toBe(0);
  });
});

describe('every /api/v1 and /api/admin answer is in the envelope', () => {
  const routes = listApiRoutes();
  const served = new Map<string, string[]>();
  for (const r of routes) served.set(r.route, [...(served.get(r.route) ?? []), r.method]);

  it('answers each method a route does not serve with 405 in the envelope and an Allow header', async () => {
    const params = {
      card_number: '4000000000000000',
      link_reference: 'lnk_x',
      reference: 'ref_x',
      hold_reference: 'hld_x',
      confirmation_reference: 'scf_x',
      id: '1',
    };
    let checked = 0;
    for (const [route, methods] of served) {
      if (route === '/api/v1/openapi.json') continue;
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !methods.includes(m))) {
        const res = await apiClient(biz.keys.test)[method.toLowerCase() as 'get'](fillRoute(route, params));
        expect(res.status, `${method} ${route}`).toBe(405);
        expect(res.body, `${method} ${route}`).toMatchObject({ status: 'error', message: 'Method not allowed' });
        expect(res.headers.get('allow')!.split(', ').sort()).toEqual([...methods].sort());
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('answers unknown paths with 404 in the envelope, with or without a key', async () => {
    for (const path of ['/api/v1/nothing', '/api/v1/card/4000000000000000/extra', '/api/admin/nothing/here', '/api/v1/card/payment/lnk_x']) {
      for (const client of [apiClient(), apiClient(biz.keys.test)]) {
        const res = await client.delete(path);
        expect(res.status, path).toBe(404);
        expect(res.body, path).toMatchObject({ status: 'error', message: 'Not found' });
      }
    }
  });
});

describe('sign-in and checkout edges', () => {
  const baseUrl = () => inject('baseUrl');

  it('answers a callbackUrl that is not an http(s) address with 400, in the query or in the cookie', async () => {
    const query = await fetch(`${baseUrl()}/api/auth/signin?callbackUrl=javascript:alert(1)`, { redirect: 'manual' });
    expect(query.status).toBe(400);
    expect(await query.json()).toMatchObject({ message: 'Validation error', error: { callbackUrl: expect.any(String) } });
    const cookie = await fetch(`${baseUrl()}/api/auth/session`, { headers: { cookie: 'next-auth.callback-url=javascript%3Aalert(1)' } });
    expect(cookie.status).toBe(400);
    expect(cookie.headers.getSetCookie().join(';')).toContain('next-auth.callback-url=; Path=/; Max-Age=0');
    // A path of this site is still taken.
    expect((await fetch(`${baseUrl()}/api/auth/signin?callbackUrl=%2Fcards`, { redirect: 'manual' })).status).toBeLessThan(400);
  });

  it('answers a credentials callback with a JSON or malformed body with 400, not 500', async () => {
    for (const [type, body] of [
      ['application/json', '{bad'],
      ['application/json', '{"email":"a@b.c","password":"x"}'],
      ['text/plain', 'email=a'],
    ]) {
      const res = await fetch(`${baseUrl()}/api/auth/callback/credentials`, { method: 'POST', headers: { 'content-type': type }, body });
      expect(res.status, `${type} ${body}`).toBe(400);
      expect(await res.json()).toMatchObject({ status: 'error', message: 'Validation error' });
    }
  });

  it('answers the checkout action called with a plain object instead of its form without a 500, and moves nothing', async () => {
    const card = await createCard(biz.test);
    const link = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 5_000, card_number: card.card_number });
    const page = await (await fetch(link.body.data.checkout_url)).text();
    const actionId = /\$ACTION_ID_([0-9a-f]+)/.exec(page)?.[1];
    expect(actionId, 'the checkout page carries its action').toBeTruthy();
    const res = await fetch(link.body.data.checkout_url, {
      method: 'POST',
      headers: { 'next-action': actionId!, 'content-type': 'text/plain;charset=UTF-8', accept: 'text/x-component' },
      body: JSON.stringify([{ reference: link.body.data.link_reference, outcome: 'success' }]),
    });
    expect(res.status).toBeLessThan(500);
    const status = await biz.test.get(`/api/v1/card/payment/${link.body.data.link_reference}/status`);
    expect(status.body.data.status).toBe('pending');
  });
});

describe('security headers', () => {
  let https: TestServer;
  beforeAll(async () => {
    https = await startTestServer({
      databaseUrl: inject('databaseUrl'),
      adminToken: inject('adminToken'),
      env: { APP_URL: 'https://pay.example.test' },
      loops: [],
    });
  });
  afterAll(() => https?.stop());

  const common = (res: Response) => {
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  };

  it('puts them on a dashboard page, the checkout page and an API answer; pages get a fresh script nonce', async () => {
    const login = await fetch(`${inject('baseUrl')}/login`);
    common(login);
    const policy = login.headers.get('content-security-policy')!;
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    const html = await login.text();
    // Next.js's own scripts carry the nonce, so the policy does not block the page.
    expect(html).toContain(`nonce="${nonce}"`);
    expect(html.match(/<script(?![^>]*nonce=)[^>]*>/g) ?? []).toEqual([]);
    const again = await fetch(`${inject('baseUrl')}/login`);
    expect(again.headers.get('content-security-policy')).not.toBe(policy);

    const card = await createCard(biz.test);
    const link = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 5_000, card_number: card.card_number });
    const checkout = await fetch(link.body.data.checkout_url);
    expect(checkout.status).toBe(200);
    common(checkout);

    const api = await fetch(`${inject('baseUrl')}/api/v1/banks`, { headers: { authorization: `Bearer ${biz.keys.test}` } });
    common(api);
    expect(api.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(api.headers.get('strict-transport-security')).toBeNull();
  });

  it('adds Strict-Transport-Security when APP_URL is https', async () => {
    const res = await fetch(`${https.baseUrl}/api/health`);
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    common(res);
  });
});
