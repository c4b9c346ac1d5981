import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createCard, createTestBusiness, type TestBusiness } from '../helpers';
import { PASSWORD, signInOverHttp, userOf } from '../owners-auth-helpers';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Target {
  /** URL path with dynamic segments filled in. */
  path: string;
  /** Where it comes from: a route file, a page, or a file under public/. */
  kind: 'route' | 'page' | 'static';
}

/** Every page.tsx and route.ts under app/ (route groups dropped), and every file under public/: a new one is walked by itself. */
function listTargets(values: Record<string, string>): Target[] {
  const found: Target[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'route.ts' || entry.name === 'page.tsx') {
        const segments = path
          .relative(path.join(ROOT, 'app'), dir)
          .split(path.sep)
          .filter((s) => s && !/^\(.*\)$/.test(s));
        const filled = segments.map((s) => {
          const name = /^\[(?:\.\.\.)?(\w+)\]$/.exec(s)?.[1];
          if (!name) return s;
          if (!(name in values)) throw new Error(`no sample value for [${name}] in ${dir}`);
          return values[name];
        });
        found.push({ path: `/${filled.join('/')}`, kind: entry.name === 'route.ts' ? 'route' : 'page' });
      }
    }
  };
  walk(path.join(ROOT, 'app'));
  for (const name of fs.readdirSync(path.join(ROOT, 'public'))) found.push({ path: `/${name}`, kind: 'static' });
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'FOO'];
const ODD_COOKIES = [
  'next-auth.callback-url=javascript:alert(1)',
  'next-auth.callback-url=a:b',
  'next-auth.callback-url=%E0%A4%A',
  'next-auth.session-token=not-a-token',
  'next-auth.csrf-token=%ZZ',
  'gc_mode=%E0%A4%A',
];
const ODD_QUERIES = [
  'to=2026-13-45',
  'from=2026-99-99',
  'from=2026-02-30&to=2026-01-01',
  'from=0000-00-00&to=9999-99-99',
  'page=-1&limit=1e999',
  'cursor=%00&sort=__proto__',
  'status=x&status=y&currency=ZZZ',
  'q=%25%25&card_number=1%202',
  'callbackUrl=javascript:alert(1)',
];
const BODIES: { type: string; body: string; action?: boolean }[] = [
  { type: 'application/json', body: '{' },
  { type: 'application/json', body: '{"amount":1e999,"currency":["ETB"]}' },
  { type: 'application/x-www-form-urlencoded', body: 'a=%ZZ&b' },
  { type: 'text/plain', body: '\u0000' },
  { type: 'multipart/form-data; boundary=b', body: '--b\r\nContent-Disposition: form-data; name="0"\r\n\r\n["$B1"]\r\n--b--\r\n', action: true },
  { type: 'multipart/form-data; boundary=b', body: '--b\r\nContent-Disposition: form-data; name="0"\r\n\r\n["$1"]\r\n--b--\r\n', action: true },
];

/** A small seeded generator (mulberry32): the same sample every run, so a failure can be replayed. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Probe {
  method: string;
  path: string;
  kind: Target['kind'];
  cookie?: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(p: Probe): Promise<Answer> {
  const url = new URL(inject('baseUrl'));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: p.method,
        path: p.path,
        headers: {
          connection: 'close',
          ...(p.cookie && { cookie: p.cookie }),
          ...(p.body !== undefined && { 'content-length': String(Buffer.byteLength(p.body)) }),
          ...p.headers,
        },
      },
      (res) => {
        // A live stream (the dashboard's, signed in) stays open by design: its status and headers are its answer.
        if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
          res.destroy();
          return;
        }
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`${p.method} ${p.path}: no answer in 30 s`)));
    req.on('error', reject);
    req.end(p.body);
  });
}

const isApi = (p: string) => /^\/api\/(v1|admin)(\/|$)/.test(p);
const isStatic = (p: Probe) => p.kind === 'static' || p.path.startsWith('/_next/');

/** What is wrong with an answer, or undefined: no 5xx; a refusal is the envelope on the API, a page on the dashboard. */
function fault(p: Probe, a: Answer): string | undefined {
  if (a.status >= 500 || a.status < 100) return `status ${a.status}`;
  if (a.status < 400 || p.method === 'HEAD') return undefined;
  const type = String(a.headers['content-type'] ?? '');
  if (isStatic(p)) return a.status === 405 && a.headers.allow ? undefined : `static refusal ${a.status} without Allow`;
  const envelope = () => {
    try {
      const body = JSON.parse(a.body);
      return body.status === 'error' && typeof body.message === 'string' && body.error !== undefined;
    } catch {
      return false;
    }
  };
  if (isApi(p.path))
    return type.startsWith('application/json') && envelope() ? undefined : `API refusal ${a.status} not in the envelope: ${a.body.slice(0, 80)}`;
  // Elsewhere under /api (health, providers, the dashboard's JSON) a refusal is JSON that says it is one.
  if (p.path.startsWith('/api/'))
    return type.startsWith('application/json') && /"status":"error"/.test(a.body) ? undefined : `refusal ${a.status} with an empty or bare body`;
  // A dashboard page answers a page; its route files (exports, results) and a refused action body (read by script) may answer the envelope.
  if (type.startsWith('text/html') && /<html/i.test(a.body)) return undefined;
  if ((p.kind === 'route' || p.method === 'POST') && type.startsWith('application/json') && envelope()) return undefined;
  return `dashboard refusal ${a.status} is neither a page nor the envelope (${type}): ${a.body.slice(0, 80)}`;
}

let biz: TestBusiness;
let session: string;
let targets: Target[];
let checkoutPath: string;
let actionId: string;

beforeAll(async () => {
  biz = await createTestBusiness('No server errors');
  const card = await createCard(biz.test);
  const owner = await userOf(biz.id, 'owner');
  session = (await signInOverHttp(owner.email, PASSWORD)).cookie!;
  expect(session).toBeTruthy();
  // The hosted checkout page's action: one a caller without a session can reach.
  const link = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 5_000, card_number: card.card_number });
  checkoutPath = new URL(link.body.data.checkout_url).pathname;
  actionId = /\$ACTION_ID_([0-9a-f]+)/.exec(await (await fetch(link.body.data.checkout_url)).text())![1];
  targets = listTargets({
    path: 'card',
    card_number: card.card_number,
    hold_reference: 'hold_missing',
    confirmation_reference: 'scf_missing',
    link_reference: 'pl_missing',
    reference: 'ref_missing',
    slug: 'no-such-shop',
    id: String(biz.id),
    token: 'tok_missing',
    endpoint: 'whk_missing',
    kind: 'cards',
    nextauth: 'session',
  });
});

async function expectNoFaults(probes: Probe[]) {
  const faults: string[] = [];
  // Two at a time: the server is shared with the other test files.
  for (let i = 0; i < probes.length; i += 2) {
    const answers = await Promise.all(probes.slice(i, i + 2).map(async (p) => [p, await send(p)] as const));
    for (const [p, a] of answers) {
      const f = fault(p, a);
      if (f) faults.push(`${p.method} ${p.path}${p.cookie ? ` [cookie ${p.cookie.split(';')[0]}]` : ''}${p.body ? ' [body]' : ''}: ${f}`);
    }
  }
  expect(faults).toEqual([]);
}

describe('no route, page or method answers 500', () => {
  it('walks every route file, page and public file with every method once', async () => {
    expect(targets.length).toBeGreaterThan(60);
    const probes = targets.flatMap((t) => METHODS.map((method) => ({ method, path: t.path, kind: t.kind })));
    await expectNoFaults(probes);
  });

  it('holds for a seeded sample of odd cookies, malformed query values, bodies and sessions', async () => {
    const random = seeded(40);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    const probes: Probe[] = Array.from({ length: 240 }, () => {
      const t = pick(targets);
      const method = pick(['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'TRACE']);
      const cookies = [random() < 0.5 ? session : undefined, random() < 0.6 ? pick(ODD_COOKIES) : undefined].filter(Boolean);
      const withBody = method !== 'GET' && random() < 0.7 ? pick(BODIES) : undefined;
      return {
        method,
        path: `${t.path}?${pick(ODD_QUERIES)}`,
        kind: t.kind,
        cookie: cookies.join('; ') || undefined,
        headers: {
          ...(withBody && { 'content-type': withBody.type }),
          ...(withBody?.action && random() < 0.5 && { 'next-action': '0'.repeat(42) }),
          ...(isApi(t.path) && random() < 0.5 && { authorization: `Bearer ${t.path.startsWith('/api/admin') ? inject('adminToken') : biz.keys.test}` }),
        },
        body: withBody?.body,
      };
    });
    await expectNoFaults(probes);
  });

  it('answers each case of issue 40 without a 5xx', async () => {
    const cases: Probe[] = [];
    for (const p of [
      '/api/providers/chapa/webhook',
      '/api/providers/chapa/callback',
      '/api/dashboard/payouts',
      '/api/health',
      '/api/ready',
      '/payouts/export',
    ]) {
      cases.push({ method: 'TRACE', path: p, kind: 'route' });
    }
    cases.push({ method: 'PROPFIND', path: '/payouts/export', kind: 'route' });
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE']) cases.push({ method, path: '/favicon.ico', kind: 'static' });
    for (const value of ['javascript:alert(1)', 'a:b']) {
      for (const p of ['/login', '/', '/cards']) cases.push({ method: 'GET', path: p, kind: 'page', cookie: `next-auth.callback-url=${value}` });
    }
    cases.push({ method: 'GET', path: '/api/auth/callback/credentials', kind: 'route' });
    // References between fields that lead nowhere, or forward: Next.js decodes them before any of our code runs.
    const field = (name: string, value: string) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const bodies = [
      field('0', '["$B1"]'),
      field('0', '["$1"]'),
      field('0', '["$Q2"]'),
      field('0', '["$K1"]'),
      field('0', '["$@3"]'),
      field('0', '["$F1"]'),
      field('0', '["$2"]') + field('1', '"x"'),
      field('0', '["$1"]') + field('1', '["$2"]') + field('2', '["$1"]'),
      field('0', '["$B1"]') + field('1', '"not a file"'),
    ].map((b) => `${b}--b--\r\n`);
    for (const body of bodies) {
      for (const [p, headers] of [
        [checkoutPath, { 'next-action': actionId }],
        [checkoutPath, {}],
        ['/cards', { 'next-action': actionId }],
        ['/login', {}],
      ] as const) {
        cases.push({ method: 'POST', path: p, kind: 'page', headers: { 'content-type': 'multipart/form-data; boundary=b', ...headers }, body });
      }
    }
    for (const q of ['to=2026-13-45', 'from=2026-13-45', 'to=2026-99-99', 'from=2026-99-99']) {
      for (const p of ['/reports/reconciliation', '/reports/statement', '/reports/reconciliation/export', '/reports/statement/export']) {
        cases.push({ method: 'GET', path: `${p}?${q}`, kind: p.endsWith('export') ? 'route' : 'page', cookie: session });
      }
    }
    await expectNoFaults(cases);
    // A page clears the bad stored address, as /api/auth does.
    const cleared = await send({ method: 'GET', path: '/login', kind: 'page', cookie: 'next-auth.callback-url=javascript:alert(1)' });
    expect(String(cleared.headers['set-cookie'])).toContain('next-auth.callback-url=; Path=/; Max-Age=0');
  });
});
