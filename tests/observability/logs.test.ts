import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, createCard, createTestBusiness, randomPhone, type TestBusiness, waitFor } from '../helpers';
import { startTestServer, type TestServer } from '../test-server';
import { logLines, requestLine } from './server-logs';

// A server of its own at debug level, so its request lines carry the path and the headers: the redaction has something to hide.
let server: TestServer;
let biz: TestBusiness;
beforeAll(async () => {
  // No background loops: the shared server runs them on this database, and their lines would only crowd the log read here.
  server = await startTestServer({ databaseUrl: inject('databaseUrl'), adminToken: inject('adminToken'), env: { LOG_LEVEL: 'debug' }, loops: [] });
  biz = await createTestBusiness('Logs');
});
afterAll(async () => {
  await server?.stop();
});

describe('request logs', () => {
  it('write one JSON line per request with its id, route pattern, status, duration, business and mode', async () => {
    const card = await createCard(biz.test);
    const res = await apiClient(biz.keys.test, server.baseUrl).get(`/api/v1/card/${card.card_number}`, { headers: { 'x-request-id': 'obs-log-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('obs-log-1');
    const line = await requestLine(server, 'obs-log-1');
    expect(line).toMatchObject({ level: 'info', method: 'GET', route: '/api/v1/card/[card_number]', status: 200, business_id: biz.id, mode: 'test' });
    expect(line.ms).toBeGreaterThan(0);
    expect(typeof line.time).toBe('string');
  });

  it('put the request id on every line written while answering, from inside the route too', async () => {
    // A test card asked for with the live key: not found in live mode.
    const card = await createCard(biz.test);
    const res = await apiClient(biz.keys.live, server.baseUrl).get(`/api/v1/card/${card.card_number}`, { headers: { 'x-request-id': 'obs-log-2' } });
    expect(res.status).toBe(404);
    await requestLine(server, 'obs-log-2');
    const lines = logLines(server).filter((l) => l.request_id === 'obs-log-2');
    // The route's own line, written inside Next.js, and the server's line when the answer ended.
    expect(lines.map((l) => l.msg)).toEqual(['answered with an error', 'request']);
    expect(lines[0]).toMatchObject({ level: 'debug', code: 'card_not_found' });
    expect(lines[1]).toMatchObject({ status: 404, business_id: biz.id, mode: 'live' });
  });

  it('echo a sane X-Request-Id on API answers and pages, and replace one that is not', async () => {
    const page = await fetch(`${server.baseUrl}/login`, { headers: { 'x-request-id': 'page.request-1_A' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-request-id')).toBe('page.request-1_A');
    expect((await requestLine(server, 'page.request-1_A')).route).toBe('/login');
    for (const bad of ['two words', 'x'.repeat(129), 'semi;colon', '']) {
      const res = await fetch(`${server.baseUrl}/api/v1/banks`, { headers: { 'x-request-id': bad } });
      expect(res.status).toBe(401);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^req_[0-9A-Za-z]{20}$/);
      expect((await res.json()).status).toBe('error');
      expect(await requestLine(server, id!)).toMatchObject({ route: '/api/v1/banks', status: 401 });
    }
    const made = await fetch(`${server.baseUrl}/api/health`);
    expect(made.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('never show card numbers, phone numbers, API keys, authorization headers, the admin token or webhook secrets', async () => {
    const mine = apiClient(biz.keys.test, server.baseUrl);
    const admin = apiClient(inject('adminToken'), server.baseUrl);
    const phone = randomPhone();
    const created = await mine.post(
      '/api/v1/card',
      { phone_number: phone, currency: 'ETB', first_name: 'Redact' },
      { headers: { 'x-request-id': 'obs-secret-1' } },
    );
    expect(created.status).toBe(201);
    const cardNumber = created.body.data.card_number as string;
    const hook = await admin.put(
      `/api/admin/businesses/${biz.id}/webhook`,
      { mode: 'test', url: 'http://127.0.0.1:1/hooks' },
      { headers: { 'x-request-id': 'obs-secret-2' } },
    );
    expect(hook.status).toBe(200);
    const webhookSecret = hook.body.data.secret as string;
    expect(webhookSecret).toMatch(/^whsec_/);
    // The same secrets where the debug line shows them: in the path, the query and headers of every kind.
    const query = new URLSearchParams({ card: cardNumber, phone, key: biz.keys.live, secret: webhookSecret, token: inject('adminToken') });
    const leaky = await mine.get(`/api/v1/card/${cardNumber}?${query}`, {
      headers: {
        'x-request-id': 'obs-secret-3',
        'x-card': cardNumber.replace(/(\d{4})/g, '$1 ').trim(),
        'x-phone': phone.slice(1),
        'x-api-key': biz.keys.live,
        'x-webhook-secret': webhookSecret,
        'x-admin': inject('adminToken'),
        cookie: `next-auth.session-token=${biz.keys.live}`,
      },
    });
    expect(leaky.status).toBe(200);
    const adminCall = await admin.get(`/api/admin/cards/${cardNumber}/disable?phone=${encodeURIComponent(phone)}`, {
      headers: { 'x-request-id': 'obs-secret-4' },
    });
    expect(adminCall.status).toBe(405);
    for (const id of ['obs-secret-1', 'obs-secret-2', 'obs-secret-3', 'obs-secret-4']) await requestLine(server, id);

    const line = await requestLine(server, 'obs-secret-3');
    expect(line.url).toBe('/api/v1/card/[redacted]?card=[redacted]&phone=%2B[redacted]&key=[redacted]&secret=[redacted]&token=[redacted]');
    expect(line.headers).toMatchObject({ authorization: '[redacted]', cookie: '[redacted]', 'x-card': '[redacted]', 'x-api-key': '[redacted]' });
    const output = server.output();
    const secrets = {
      cardNumber,
      cardNumberSpaced: cardNumber.replace(/(\d{4})/g, '$1 ').trim(),
      phone,
      nationalPhone: phone.slice(4),
      testKey: biz.keys.test,
      liveKey: biz.keys.live,
      keyBody: biz.keys.test.slice('sk_test_'.length),
      adminToken: inject('adminToken'),
      webhookSecret,
      webhookSecretBody: webhookSecret.slice('whsec_'.length),
      webhookSecretEncoded: encodeURIComponent(webhookSecret).slice('whsec_'.length),
    };
    for (const [name, secret] of Object.entries(secrets)) expect(output.includes(secret), `${name} in the log`).toBe(false);
    expect(output).not.toMatch(/Bearer /i);
  });
});

describe('request ids and error lines', () => {
  it('replace a client id that holds an API key or a card number, which would otherwise be logged verbatim', async () => {
    const card = await createCard(biz.test);
    for (const bad of [biz.keys.live, `trace-${biz.keys.test}`, card.card_number, `id.${card.card_number}`]) {
      const res = await fetch(`${server.baseUrl}/api/v1/banks`, { headers: { 'x-request-id': bad } });
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^req_[0-9A-Za-z]{20}$/);
      await requestLine(server, id!);
      expect(server.output().includes(bad), bad).toBe(false);
    }
  });

  it('quote the request id on dashboard route errors, not one of their own', async () => {
    for (const p of [
      '/api/dashboard/payouts',
      '/api/dashboard/payments',
      '/api/dashboard/deliveries',
      '/api/dashboard/live',
      '/payouts/export',
      '/reports/statement/export',
    ]) {
      const id = `obs-dash-${p.replaceAll('/', '-')}`;
      const res = await fetch(`${server.baseUrl}${p}`, { headers: { 'x-request-id': id } });
      expect(res.status, p).toBe(401);
      expect(res.headers.get('x-request-id'), p).toBe(id);
      expect((await requestLine(server, id)).status).toBe(401);
    }
    const upload = await fetch(`${server.baseUrl}/api/dashboard/uploads/cards`, { method: 'POST', headers: { 'x-request-id': 'obs-dash-upload' } });
    expect(upload.headers.get('x-request-id')).toBe('obs-dash-upload');
  });

  it('write what Next.js and next-auth report as one JSON line each, at error level, with the request id', async () => {
    // An action id no build has: Next.js reports it; a session cookie that is not a token: next-auth reports it.
    await fetch(`${server.baseUrl}/login`, { method: 'POST', headers: { 'next-action': 'f'.repeat(42), 'x-request-id': 'obs-next-1' }, body: '[]' });
    await fetch(`${server.baseUrl}/api/auth/session`, { headers: { cookie: 'next-auth.session-token=not-a-token', 'x-request-id': 'obs-auth-1' } });
    const next = await waitFor(async () => logLines(server).find((l) => l.request_id === 'obs-next-1' && /Server Action/.test(String(l.msg))));
    expect(next.level).toMatch(/^(warn|error)$/);
    const auth = await waitFor(async () => logLines(server).find((l) => l.request_id === 'obs-auth-1' && l.msg !== 'request'));
    expect(auth).toMatchObject({ level: 'error', code: 'JWT_SESSION_ERROR' });
    const notJson = server
      .output()
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('{'));
    expect(notJson).toEqual([]);
  });
});
