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
  const start = (env: Record<string, string>) => startTestServer({ databaseUrl: inject('databaseUrl'), adminToken: inject('adminToken'), env });
  [server, roomy] = await Promise.all([
    start({ RATE_LIMIT_PER_SECOND: '2', RATE_LIMIT_BURST: '10', SIGN_IN_ATTEMPTS_PER_MINUTE: '5' }),
    start({ RATE_LIMIT_PER_SECOND: '10', RATE_LIMIT_BURST: '10' }),
  ]);
});
afterAll(() => Promise.all([server?.stop(), roomy?.stop()]));

async function business(name: string) {
  const res = await admin().post('/api/admin/businesses', { name, owner_email: `${name.replace(/\W/g, '').toLowerCase()}-${Date.now()}@example.com`, owner_password: 'correct horse battery' });
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
    await new Promise((r) => setTimeout(r, 1_000));
    const list = await client.get('/api/v1/card?limit=100');
    expect(list.body.data.total).toBe(created);
  });

  // The 2x p99 target is a timing figure: bench/rate-limit prints and judges it (timed
  // assertions flake on a shared 2-core machine). Here: B is never refused while A is held to its limit.
  it(`noisy neighbour: B is served while A is throttled to its limit`, async () => {
    // B paces itself under its own limit of 10/s; A loops from 16 connections without pause.
    const result = await measureNoisyNeighbour({ baseUrl: roomy.baseUrl, adminToken: inject('adminToken'), samples: LONG ? 480 : 240, paceMs: 100, floodConcurrency: 16, rounds: 8 });
    console.log(
      `noisy neighbour: B alone p50 ${result.alone_p50_ms.toFixed(2)} ms p99 ${result.alone_p99_ms.toFixed(2)} ms; ` +
        `B while A floods from 16 loops (${result.flood_throttled} of ${result.flood_requests} answered 429, ${result.flood_per_second.toFixed(0)}/s): ` +
        `p50 ${result.flooded_p50_ms.toFixed(2)} ms p99 ${result.flooded_p99_ms.toFixed(2)} ms; ratio ${result.p99_ratio.toFixed(2)}`,
    );
    writeResult('rate-limit-test', result);
    expect(result.b_errors).toBe(0);
    // A asked far over its limit of 10/s, and was held to it.
    expect(result.flood_throttled).toBeGreaterThan(0);
    // 10 per second, plus a full bucket of 10 again after each of the 8 quiet phases.
    expect(result.flood_served).toBeLessThanOrEqual(10 * result.flood_seconds + 10 * 8 + 2);
  }, 240_000);
});

async function signInAttempt(email: string, password: string, ip: string) {
  const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
  const { csrfToken } = await csrf.json();
  const cookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const res = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'x-forwarded-for': ip },
    body: new URLSearchParams({ csrfToken, email, password, json: 'true' }),
    redirect: 'manual',
  });
  const body = await res.json();
  return new URL(body.url).searchParams.get('error');
}

describe('dashboard sign-in attempts', () => {
  it('refuse a sixth attempt per email and address within the minute with TooManyAttempts, even with the right password', async () => {
    const email = `limit-${Date.now()}@example.com`;
    const res = await admin().post('/api/admin/businesses', { name: 'Sign-in limit', owner_email: email, owner_password: 'correct horse battery' });
    expect(res.status).toBe(201);
    expect(await signInAttempt(email, 'correct horse battery', '203.0.113.7')).toBeNull();
    for (let i = 0; i < 4; i++) expect(await signInAttempt(email, 'wrong', '203.0.113.7')).toBe('CredentialsSignin');
    expect(await signInAttempt(email, 'wrong', '203.0.113.7')).toBe('TooManyAttempts');
    expect(await signInAttempt(email, 'correct horse battery', '203.0.113.7')).toBe('TooManyAttempts');
    // Another address for the same email, and the same address for another email, are counted apart.
    expect(await signInAttempt(email, 'correct horse battery', '198.51.100.9')).toBeNull();
    expect(await signInAttempt(`other-${email}`, 'wrong', '203.0.113.7')).toBe('CredentialsSignin');
  });
});
