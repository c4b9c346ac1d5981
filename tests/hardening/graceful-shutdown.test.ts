import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestBusiness, randomPhone, waitFor, type TestBusiness } from '../helpers';
import { PASSWORD, signInOverHttp, userOf } from '../owners-auth-helpers';
import { startTestServer, type TestServer } from '../test-server';

let biz: TestBusiness;
let server: TestServer;

beforeAll(async () => {
  biz = await createTestBusiness('Graceful shutdown');
  server = await startTestServer({ databaseUrl: inject('databaseUrl'), adminToken: inject('adminToken'), env: { SHUTDOWN_SETTLE_MS: '1500' } });
});
afterAll(() => server?.stop());

/** A live stream read as text until it ends. */
async function readStream(base: string, cookie: string, onReady: () => void): Promise<string> {
  const res = await fetch(`${base}/api/dashboard/live`, { headers: { cookie } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += Buffer.from(value).toString('utf8');
    if (text.includes('event: ready')) onReady();
  }
}

/** A POST whose body arrives in two parts: the request is in flight between them. */
function slowPost(port: number, path: string, key: string, body: string) {
  const req = http.request({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  return { finish: () => req.end(body.slice(10)), answer };
}

describe('readiness and SIGTERM', () => {
  it('/api/ready answers ready with its checks while the instance serves', async () => {
    const res = await fetch(`${server.baseUrl}/api/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { database: true, migrations: true, workers: true, draining: false } });
  });

  it('on SIGTERM: ready turns 503 while health stays 200, live streams are told to reconnect, a request in flight is answered, then it exits', async () => {
    const owner = await userOf(biz.id, 'owner');
    const { cookie } = await signInOverHttp(owner.email, PASSWORD, undefined, server.baseUrl);
    let streamReady!: () => void;
    const ready = new Promise<void>((r) => (streamReady = r));
    const stream = readStream(server.baseUrl, cookie!, streamReady);
    await ready;
    const inFlight = slowPost(server.port, '/api/v1/card', biz.keys.test, JSON.stringify({ phone_number: randomPhone(), currency: 'ETB', first_name: 'Late' }));
    const exited = new Promise<number | null>((r) => server.process.once('exit', (code) => r(code)));

    server.process.kill('SIGTERM');
    const draining = await waitFor(async () => {
      const res = await fetch(`${server.baseUrl}/api/ready`);
      return res.status === 503 ? ((await res.json()) as { checks: { draining: boolean } }) : undefined;
    });
    expect(draining.checks.draining).toBe(true);
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    expect(await stream).toContain('event: reconnect');

    // The port closes after the settle time; the request that was in flight still gets its answer, with the connection closed after it.
    await waitFor(async () => (server.output().includes('draining:') ? true : undefined));
    inFlight.finish();
    const answer = await inFlight.answer;
    expect(answer.status, answer.body).toBe(201);
    expect(answer.connection).toBe('close');
    expect(await exited).toBe(0);
    await expect(fetch(`${server.baseUrl}/api/health`)).rejects.toThrow();
  });
});
