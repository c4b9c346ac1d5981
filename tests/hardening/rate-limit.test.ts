import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { measureNoisyNeighbour } from '../../bench/rate-limit/noisy-neighbour';
import { writeResult } from '../../bench/bench-env';
import { apiClient, randomPhone } from '../helpers';
import { startTestServer, type TestServer } from '../test-server';

const LONG = Boolean(process.env.CI || process.env.LONG_TESTS);

/**
 * Servers of their own with small limits (the shared one runs with the generous
 * defaults): a strict one, 2 per second after a burst of 10, for exact counts on a
 * busy machine, and one at 10 per second for the noisy neighbour.
 */
let server: TestServer;
let roomy: TestServer;
const admin = () => apiClient(inject('adminToken'), server.baseUrl);

beforeAll(async () => {
  const start = (env: Record<string, string>) => startTestServer({ databaseUrl: inject('databaseUrl'), adminToken: inject('adminToken'), env, loops: [] });
  [server, roomy] = await Promise.all([
    start({ RATE_LIMIT_PER_SECOND: '2', RATE_LIMIT_BURST: '10', SIGN_IN_ATTEMPTS_PER_MINUTE: '5', ADMIN_TOKEN_ATTEMPTS_PER_MINUTE: '10' }),
    start({ RATE_LIMIT_PER_SECOND: '10', RATE_LIMIT_BURST: '10' }),
  ]);
});
afterAll(() => Promise.all([server?.stop(), roomy?.stop()]));

async function business(name: string) {
  const res = await admin().post('/api/admin/businesses', {
    name,
    owner_email: `${name.replace(/\W/g, '').toLowerCase()}-${Date.now()}@example.com`,
    owner_password: 'correct horse battery',
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; api_keys: { test: string; live: string } };
}

describe('API rate limit per key', () => {
  it('answers 429 in the envelope with Retry-After once a key spends its burst, and leaves other keys alone', async () => {
    const biz = await business('Limited');
    const client = apiClient(biz.api_keys.test, server.baseUrl);
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 30 }, () => client.get('/api/v1/banks')));
    const seconds = (Date.now() - started) / 1000;
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok.length + limited.length).toBe(30);
    // The bucket's 10, plus what refilled at 2 per second while the 30 were in flight.
    expect(ok.length).toBeGreaterThanOrEqual(10);
    expect(ok.length).toBeLessThanOrEqual(10 + Math.ceil(2 * seconds));
    expect(limited.length).toBeGreaterThan(0);
    for (const res of limited) {
      expect(res.body).toEqual({ status: 'error', message: 'Too many requests', error: expect.stringContaining('retry after') });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // The same business's other key, and the back office, still answer.
    expect((await apiClient(biz.api_keys.live, server.baseUrl).get('/api/v1/banks')).status).toBe(200);
    expect((await admin().post('/api/admin/businesses', { name: 'Still fine' })).status).toBe(201);
    // After Retry-After the key is served again.
    await new Promise((r) => setTimeout(r, Number(limited[0].headers.get('retry-after')) * 1000));
    expect((await client.get('/api/v1/banks')).status).toBe(200);
  });

  it('a throttled POST moves nothing and stores no idempotent answer', async () => {
    const biz = await business('Limited POST');
    const client = apiClient(biz.api_keys.test, server.baseUrl);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        client.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'R' }, { headers: { 'idempotency-key': `rl-${i}` } }),
      ),
    );
    const created = answers.filter((a) => a.status === 201).length;
    const limited = answers.filter((a) => a.status === 429);
    expect(created + limited.length).toBe(30);
    expect(limited.length).toBeGreaterThan(0);
    // The key is throttled too: ask until the bucket lets the list through, rather than sleeping a refill out.
    let list = await client.get('/api/v1/card?limit=100');
    await expect
      .poll(
        async () => {
          list = await client.get('/api/v1/card?limit=100');
          return list.status;
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(200);
    expect(list.body.data.total).toBe(created);
  });

  // The 2x p99 target is a timing figure: bench/rate-limit prints and judges it (timed
  // assertions flake on a shared 2-core machine). Here: B is never refused while A is held to its limit.
  it(`noisy neighbour: B is served while A is throttled to its limit`, async () => {
    // B paces itself under its own limit of 10/s; A loops from 16 connections without pause.
    const result = await measureNoisyNeighbour({
      baseUrl: roomy.baseUrl,
      adminToken: inject('adminToken'),
      // What is asserted (B never refused, A held to its limit) shows in a few seconds of flood; the latency figures
      // are bench/rate-limit's. A longer flood only took a core from the other test worker for minutes.
      samples: LONG ? 120 : 60,
      paceMs: 100,
      floodConcurrency: 16,
      rounds: 4,
    });
    console.log(
      `noisy neighbour: B alone p50 ${result.alone_p50_ms.toFixed(2)} ms p99 ${result.alone_p99_ms.toFixed(2)} ms; ` +
        `B while A floods from 16 loops (${result.flood_throttled} of ${result.flood_requests} answered 429, ${result.flood_per_second.toFixed(0)}/s): ` +
        `p50 ${result.flooded_p50_ms.toFixed(2)} ms p99 ${result.flooded_p99_ms.toFixed(2)} ms; ratio ${result.p99_ratio.toFixed(2)}`,
    );
    writeResult('rate-limit-test', result);
    expect(result.b_errors).toBe(0);
    // A asked far over its limit of 10/s, and was held to it.
    expect(result.flood_throttled).toBeGreaterThan(0);
    // 10 per second, plus a full bucket of 10 again after each of the 4 quiet phases.
    expect(result.flood_served).toBeLessThanOrEqual(10 * result.flood_seconds + 10 * 4 + 2);
  }, 240_000);
});

/** One HTTP exchange from a chosen loopback address (127.0.0.0/8 is all this machine's), so the server sees distinct clients. */
function fromAddress(localAddress: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; setCookies: string[]; body: string }>((resolve, reject) => {
    const url = new URL(path, server.baseUrl);
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: opts.method ?? 'GET', headers: opts.headers, localAddress },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, setCookies: ([] as string[]).concat(res.headers['set-cookie'] ?? []), body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A sign-in through next-auth's credentials callback: null when it signed in, else next-auth's error code. */
async function signInAttempt(email: string, password: string, localAddress: string, forwardedFor?: string) {
  const csrf = await fromAddress(localAddress, '/api/auth/csrf');
  const { csrfToken } = JSON.parse(csrf.body);
  const cookie = csrf.setCookies.map((c) => c.split(';')[0]).join('; ');
  const res = await fromAddress(localAddress, '/api/auth/callback/credentials', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...(forwardedFor && { 'x-forwarded-for': forwardedFor }) },
    body: new URLSearchParams({ csrfToken, email, password, json: 'true' }).toString(),
  });
  return new URL(JSON.parse(res.body).url).searchParams.get('error');
}

async function owner(name: string) {
  const email = `${name}-${Date.now()}@example.com`;
  const res = await admin().post('/api/admin/businesses', { name, owner_email: email, owner_password: 'correct horse battery' });
  expect(res.status).toBe(201);
  return email;
}

describe('dashboard sign-in attempts (5 a minute per address on this server)', () => {
  it('limits one address across all emails, however it rotates X-Forwarded-For', async () => {
    const emails = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => owner(`spray${i}`)));
    const answers = [];
    for (const [i, email] of emails.entries()) answers.push(await signInAttempt(email, 'wrong', '127.0.0.2', `198.51.100.${i + 1}`));
    expect(answers).toEqual([...Array(5).fill('CredentialsSignin'), 'TooManyAttempts']);
    // Even the right password is refused from that address until its bucket refills.
    expect(await signInAttempt(emails[0], 'correct horse battery', '127.0.0.2', '203.0.113.50')).toBe('TooManyAttempts');
  });

  it('lets the owner sign in from their own address after 100 failures from another', async () => {
    const email = await owner('lockout');
    const answers = [];
    const started = Date.now();
    for (let i = 0; i < 100; i++) answers.push(await signInAttempt(email, `guess-${i}`, '127.0.0.3'));
    // The bucket's 5, and what refilled at 5 a minute while a loaded machine ran the 100.
    const refilled = Math.floor(((Date.now() - started) / 60_000) * 5);
    const checked = answers.filter((a) => a === 'CredentialsSignin').length;
    expect(checked).toBeGreaterThanOrEqual(5);
    expect(checked).toBeLessThanOrEqual(5 + refilled);
    expect(answers.filter((a) => a === 'TooManyAttempts')).toHaveLength(100 - checked);
    expect(await signInAttempt(email, 'correct horse battery', '127.0.0.4')).toBeNull();
  }, 120_000);
});

describe('back office token attempts', () => {
  it('refuses an address after 10 wrong tokens, even with the right one, and leaves other addresses alone', async () => {
    const post = (token: string) =>
      fromAddress('127.0.0.5', '/api/admin/businesses', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"name":"Guess"}',
      });
    for (let i = 0; i < 10; i++) expect((await post(`adm_guess_${i}_0123456789abcdef0123456789`)).status).toBe(401);
    const refused = await post(inject('adminToken'));
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ status: 'error', message: 'Too many requests' });
    expect((await admin().post('/api/admin/businesses', { name: 'Still served' })).status).toBe(201);
  });
});
