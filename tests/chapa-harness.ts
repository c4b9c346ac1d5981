import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startTestServer, type TestServer } from './test-server';

/**
 * Live mode against tools/chapa-fake: the fake as a process of its own and a
 * second app server whose CHAPA_* point at it (the shared test server keeps
 * live rails off). Used by vitest suites and Playwright specs alike.
 */

const ROOT = path.resolve(import.meta.dirname, '..');

export const CHAPA_TEST_SECRETS = {
  secretKey: 'CHASECK_TEST-harness0123456789abcdef',
  webhookSecret: 'harness-webhook-secret-0123456789',
  encryptionKey: 'harness-encryption-key-24',
  approvalSecret: 'harness-approval-secret-0123456789',
} as const;

export interface ChapaFakeProcess {
  url: string;
  process: ChildProcess;
  output: () => string;
  /** POST to one of the fake's controls (/__fake/...), answering its JSON. */
  control: (path: string, body?: unknown) => Promise<any>;
  state: () => Promise<FakeState>;
  switches: (s: Record<string, unknown>) => Promise<void>;
  reset: () => Promise<void>;
  stop: () => Promise<void>;
}

interface FakeState {
  requests: { method: string; path: string; operation: string; body: any; answered: number | 'timeout' }[];
  deliveries: { id: number; event: string; body: string; headers: Record<string, string>; status: number | null; error?: string }[];
  held: number;
  stores: Record<string, any>;
}

/** Starts `tsx tools/chapa-fake/main.ts` on a free port and waits for its "listening" line. */
export async function startChapaFake(env: Record<string, string> = {}): Promise<ChapaFakeProcess> {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['tools/chapa-fake/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      CHAPA_FAKE_PORT: '0',
      CHAPA_SECRET_KEY: CHAPA_TEST_SECRETS.secretKey,
      CHAPA_WEBHOOK_SECRET: CHAPA_TEST_SECRETS.webhookSecret,
      CHAPA_ENCRYPTION_KEY: CHAPA_TEST_SECRETS.encryptionKey,
      CHAPA_APPROVAL_SECRET: CHAPA_TEST_SECRETS.approvalSecret,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chapa-fake did not start:\n${log}`)), 30_000);
    child.stdout!.on('data', (d) => {
      log += d;
      const m = /chapa-fake listening on (\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr!.on('data', (d) => (log += d));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`chapa-fake exited with ${code}:\n${log}`));
    });
  });
  const control = async (p: string, body?: unknown) => {
    const res = await fetch(`${url}${p}`, {
      method: body === undefined && p === '/__fake/state' ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined && p === '/__fake/state' ? undefined : JSON.stringify(body ?? {}),
    });
    return res.json();
  };
  return {
    url,
    process: child,
    output: () => log,
    control,
    state: () => control('/__fake/state'),
    switches: async (s) => void (await control('/__fake/switches', s)),
    reset: async () => void (await control('/__fake/reset', {})),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}

export interface LiveStack {
  fake: ChapaFakeProcess;
  server: TestServer;
  baseUrl: string;
  adminToken: string;
  /** A new business on the live server: its id and both keys. */
  createBusiness: (name?: string) => Promise<{ id: number; keys: { test: string; live: string } }>;
  /** Credits the business account in live mode (a recorded live deposit), for payouts. */
  fund: (businessId: number, currency: string, amount: number) => Promise<void>;
  /** Another app instance on the same database and fake (as several instances behind a load balancer). */
  startInstance: () => Promise<TestServer>;
  stop: () => Promise<void>;
}

/**
 * Default timings make scheduled verification quick enough to watch in a test. A claimed rail request is leased for
 * two call timeouts and a second, not the default four timeouts: every retry of a request waits for its lease.
 */
export const FAST_LIVE_TIMING = { CHAPA_VERIFY_INTERVAL_MS: '300', CHAPA_VERIFY_MAX_INTERVAL_MS: '1000', CHAPA_TIMEOUT_MS: '2000', CHAPA_LEASE_MS: '5000' };

/**
 * The loops that act on live rows through Chapa: a stack beside the shared server, on its database, needs only these
 * (the shared server, without CHAPA_* set, runs every other loop there).
 */
export const LIVE_LOOPS = ['rail-requests', 'live-verification', 'refund-requests'];

export async function startLiveStack(opts: {
  databaseUrl: string;
  adminToken: string;
  /** The app server's background loops (test-server.ts); every one when omitted, as a stack on a database of its own needs. */
  loops?: string[];
  /** Extra environment for the app server (e.g. CHAPA_PAYMENT_TIMEOUT_MS). */
  env?: Record<string, string>;
  fakeEnv?: Record<string, string>;
  processGroup?: boolean;
}): Promise<LiveStack> {
  const fake = await startChapaFake(opts.fakeEnv);
  const serverOptions = {
    databaseUrl: opts.databaseUrl,
    adminToken: opts.adminToken,
    processGroup: opts.processGroup,
    loops: opts.loops,
    env: {
      CHAPA_SECRET_KEY: CHAPA_TEST_SECRETS.secretKey,
      CHAPA_BASE_URL: `${fake.url}/v1`,
      CHAPA_WEBHOOK_SECRET: CHAPA_TEST_SECRETS.webhookSecret,
      CHAPA_ENCRYPTION_KEY: CHAPA_TEST_SECRETS.encryptionKey,
      CHAPA_APPROVAL_SECRET: CHAPA_TEST_SECRETS.approvalSecret,
      ...FAST_LIVE_TIMING,
      ...opts.env,
    },
  };
  const extra: TestServer[] = [];
  let server: TestServer;
  try {
    server = await startTestServer(serverOptions);
  } catch (err) {
    await fake.stop();
    throw err;
  }
  await fake.control('/__fake/config', { webhookUrl: `${server.baseUrl}/api/providers/chapa/webhook` });
  const admin = async (p: string, body: unknown) => {
    const res = await fetch(`${server.baseUrl}/api/admin${p}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${opts.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (!res.ok) throw new Error(`admin ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  return {
    fake,
    server,
    baseUrl: server.baseUrl,
    adminToken: opts.adminToken,
    async createBusiness(name = 'Live business') {
      const d = await admin('/businesses', { name });
      return { id: d.id, keys: d.api_keys };
    },
    async fund(businessId, currency, amount) {
      await admin(`/businesses/${businessId}/balance`, { mode: 'live', currency, amount });
    },
    async startInstance() {
      const instance = await startTestServer(serverOptions);
      extra.push(instance);
      return instance;
    },
    async stop() {
      await Promise.all([server, ...extra].map((x) => x.stop()));
      await fake.stop();
    },
  };
}
