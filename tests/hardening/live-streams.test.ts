import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestBusiness, type TestBusiness } from '../helpers';
import { PASSWORD, userOf } from '../owners-auth-helpers';
import { pidListeningOn, residentMb } from '../process-memory';
import { startTestServer, type TestServer } from '../test-server';

/** next-auth's credentials sign-in over HTTP against any server: the session cookie. */
async function signIn(base: string, email: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = csrf.headers.getSetCookie().map((c) => c.split(';')[0]);
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; ') },
    body: new URLSearchParams({ csrfToken, email, password: PASSWORD, json: 'true' }).toString(),
  });
  const session = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('next-auth.session-token=') && c.length > 'next-auth.session-token='.length);
  expect(session, `sign-in of ${email}`).toBeTruthy();
  return session!;
}

interface OpenStream {
  status: number;
  close(): void;
}

/** Opens the dashboard's live stream; a 200 is read up to its `ready` event, so the server has set it up. */
async function openStream(base: string, cookie: string): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(`${base}/api/dashboard/live`, { headers: { cookie }, signal: abort.signal });
  if (res.status !== 200) {
    await res.text();
    return { status: res.status, close: () => {} };
  }
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('event: ready')) {
    const { done, value } = await reader.read();
    if (done) break;
    text += Buffer.from(value).toString('utf8');
  }
  return { status: 200, close: () => abort.abort() };
}

let biz: TestBusiness;
beforeAll(async () => {
  biz = await createTestBusiness('Live streams');
});

describe('live streams per session and per address', () => {
  it('one session asking for 300 streams gets 16, the rest 429, and the server grows by little', async () => {
    const base = inject('baseUrl');
    const pid = pidListeningOn(Number(new URL(base).port));
    const owner = await userOf(biz.id, 'owner');
    const cookie = await signIn(base, owner.email);
    const before = residentMb(pid);
    const streams: OpenStream[] = [];
    for (let i = 0; i < 300; i++) streams.push(await openStream(base, cookie));
    const after = residentMb(pid);
    const statuses = streams.map((s) => s.status);
    console.log(
      `300 asked by one session: ${statuses.filter((s) => s === 200).length} opened, ${statuses.filter((s) => s === 429).length} refused with 429; resident ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB with them open (+${(after - before).toFixed(1)} MB)`,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(16);
    expect(statuses.filter((s) => s === 429)).toHaveLength(284);
    // Closing one frees its slot.
    streams.find((s) => s.status === 200)!.close();
    await expect
      .poll(async () => {
        const s = await openStream(base, cookie);
        if (s.status === 200) streams.push(s);
        return s.status;
      })
      .toBe(200);
    for (const s of streams) s.close();
  }, 120_000);

  describe('on a server with small caps', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        databaseUrl: inject('databaseUrl'),
        adminToken: inject('adminToken'),
        env: { LIVE_STREAMS_PER_SESSION: '4', LIVE_STREAMS_PER_ADDRESS: '6' },
        loops: ['live-stream-heartbeat'],
      });
    });
    afterAll(() => server?.stop());

    it('refuses a new session from an address that already holds its cap, and takes it again once streams close', async () => {
      const [a, b, c] = await Promise.all([userOf(biz.id, 'owner'), userOf(biz.id, 'operator'), userOf(biz.id, 'support')]);
      const [ca, cb, cc] = [await signIn(server.baseUrl, a.email), await signIn(server.baseUrl, b.email), await signIn(server.baseUrl, c.email)];
      const fromA = [];
      for (let i = 0; i < 5; i++) fromA.push(await openStream(server.baseUrl, ca));
      expect(fromA.map((s) => s.status)).toEqual([200, 200, 200, 200, 429]);
      const fromB = [];
      for (let i = 0; i < 3; i++) fromB.push(await openStream(server.baseUrl, cb));
      expect(fromB.map((s) => s.status)).toEqual([200, 200, 429]);
      const refused = await fetch(`${server.baseUrl}/api/dashboard/live`, { headers: { cookie: cc } });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ status: 'error', message: 'Too many requests' });
      expect(refused.headers.get('retry-after')).toBeTruthy();
      for (const s of fromA) s.close();
      await expect.poll(async () => (await openStream(server.baseUrl, cc)).status).toBe(200);
      for (const s of fromB) s.close();
    });
  });
});
