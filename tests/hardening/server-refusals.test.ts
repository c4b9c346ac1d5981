import fs from 'node:fs';
import { once } from 'node:events';
import net from 'node:net';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createCard, createTestBusiness, type TestBusiness } from '../helpers';
import { pidListeningOn, residentMb } from '../process-memory';

const MB = 1024 * 1024;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request over a raw socket, so any method name and any body can be sent as is. */
async function rawRequest(method: string, path: string, headers: Record<string, string> = {}, body = ''): Promise<RawAnswer> {
  const url = new URL(inject('baseUrl'));
  const socket = net.connect(Number(url.port), url.hostname);
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (d) => {
    received += d;
  });
  socket.on('error', () => {});
  const head = Object.entries({ host: url.host, connection: 'close', 'content-length': String(Buffer.byteLength(body)), ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n${body}`);
  await Promise.race([once(socket, 'close'), new Promise((r) => setTimeout(r, 30_000))]);
  socket.destroy();
  const [answerHead, ...rest] = received.split('\r\n\r\n');
  const lines = answerHead.split('\r\n');
  let text = rest.join('\r\n\r\n');
  if (/transfer-encoding: *chunked/i.test(answerHead)) text = text.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0])?.[1] ?? 0),
    headers: Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()])),
    body: text,
  };
}

/** The CPU time a process has used, in seconds, from /proc/<pid>/stat (user + system). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Streams up to 256 MB of a body with Content-Length over a raw socket until the server
 * answers and closes; reports what had been handed to the socket by then.
 */
async function uploadUntilClosed(path: string, headers: Record<string, string>, pid: number) {
  const url = new URL(inject('baseUrl'));
  const socket = net.connect(Number(url.port), url.hostname);
  await once(socket, 'connect');
  let received = '';
  let closed = false;
  let peakRssMb = residentMb(pid);
  socket.on('data', (d) => {
    received += d;
  });
  socket.on('error', () => {});
  const gone = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closed = true;
      resolve();
    }),
  );
  const total = 256 * MB;
  const head = Object.entries({ host: url.host, 'content-type': 'application/octet-stream', 'content-length': String(total), ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const cpuBefore = cpuSeconds(pid);
  const started = Date.now();
  socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
  const block = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  while (!closed && sent < total) {
    sent += block.length;
    const flushed = socket.write(block);
    if (sent % (16 * MB) === 0) peakRssMb = Math.max(peakRssMb, residentMb(pid));
    if (flushed) await new Promise((r) => setImmediate(r));
    else await Promise.race([once(socket, 'drain').catch(() => {}), gone]);
  }
  await Promise.race([gone, new Promise((r) => setTimeout(r, 5_000))]);
  socket.destroy();
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0),
    connection: /\r\nconnection: *([^\r]+)/i.exec(received)?.[1]?.toLowerCase(),
    sentMb: sent / MB,
    seconds: (Date.now() - started) / 1000,
    cpuSeconds: cpuSeconds(pid) - cpuBefore,
    peakRssMb: Math.max(peakRssMb, residentMb(pid)),
  };
}

let biz: TestBusiness;
beforeAll(async () => {
  biz = await createTestBusiness('Server refusals');
});

describe('methods an API prefix does not serve', () => {
  it('answers TRACE, WebDAV verbs and unknown names with 405 in the envelope and the prefix Allow', async () => {
    const prefixes: [string, string][] = [
      ['/api/v1/card', 'GET, POST, PUT, PATCH, DELETE'],
      ['/api/admin/businesses', 'GET, POST, PUT, PATCH, DELETE'],
      ['/api/auth/session', 'GET, POST'],
      ['/api/webhooks/whk_anything', 'POST'],
    ];
    for (const [path, allow] of prefixes) {
      for (const method of ['TRACE', 'PROPFIND', 'FOO']) {
        const res = await rawRequest(method, path);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow, `${method} ${path}`).toBe(allow);
        expect(JSON.parse(res.body), `${method} ${path}`).toMatchObject({ status: 'error', message: 'Method not allowed' });
      }
    }
    // A method the prefix serves still reaches its route.
    expect((await rawRequest('GET', '/api/v1/banks', { authorization: `Bearer ${biz.keys.test}` })).status).toBe(200);
  });
});

describe('a malformed next-auth callback cookie', () => {
  it('is refused with 400 and cleared on every /api/auth route, like any other bad callback cookie', async () => {
    const cookie = 'next-auth.callback-url=%E0%A4%A';
    for (const [method, path] of [
      ['GET', '/api/auth/session'],
      ['GET', '/api/auth/csrf'],
      ['GET', '/api/auth/providers'],
      ['GET', '/api/auth/signin'],
      ['POST', '/api/auth/callback/credentials'],
      ['POST', '/api/auth/signout'],
    ]) {
      const res = await fetch(`${inject('baseUrl')}${path}`, {
        method,
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: method === 'POST' ? 'email=a%40b.c&password=x' : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(await res.json()).toMatchObject({ status: 'error', message: 'Validation error', error: { callbackUrl: expect.any(String) } });
      expect(res.headers.getSetCookie().join(';')).toContain('next-auth.callback-url=; Path=/; Max-Age=0');
    }
  });
});

describe('server action bodies Next.js would choke on', () => {
  let checkoutUrl: string;
  let actionId: string;
  beforeAll(async () => {
    const card = await createCard(biz.test);
    const link = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 5_000, card_number: card.card_number });
    checkoutUrl = link.body.data.checkout_url;
    actionId = /\$ACTION_ID_([0-9a-f]+)/.exec(await (await fetch(checkoutUrl)).text())![1];
  });

  it('answers 100,000-deep JSON with 400 in the envelope, without a key or a session', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const res = await rawRequest('POST', new URL(checkoutUrl).pathname, { 'next-action': actionId, 'content-type': 'text/plain;charset=UTF-8' }, deep);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'error', message: 'Validation error', error: { body: expect.stringContaining('nested deeper') } });
    // The same nesting inside a multipart field.
    const boundary = 'deepboundary';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="0"\r\n\r\n${deep}\r\n--${boundary}--\r\n`;
    const inField = await rawRequest(
      'POST',
      new URL(checkoutUrl).pathname,
      { 'next-action': actionId, 'content-type': `multipart/form-data; boundary=${boundary}` },
      multipart,
    );
    expect(inField.status).toBe(400);
  });

  it('answers a malformed multipart body with 400 in the envelope, with or without an action header', async () => {
    const path = new URL(checkoutUrl).pathname;
    const cut = '--b\r\nContent-Disposition: form-data; name="0"\r\n\r\n["$K1"]';
    for (const headers of <Record<string, string>[]>[
      { 'next-action': actionId, 'content-type': 'multipart/form-data; boundary=b' },
      { 'content-type': 'multipart/form-data; boundary=b' },
      { 'next-action': actionId, 'content-type': 'multipart/form-data' },
    ]) {
      const res = await rawRequest('POST', path, headers, cut);
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ status: 'error', message: 'Validation error' });
    }
  });

  it('answers 10,000 one-level fields chained by reference with 400: each is shallow, but decoding follows the chain', async () => {
    const boundary = 'c';
    const fields = Array.from({ length: 10_000 }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="${i}"\r\n\r\n["$${i + 1}"]\r\n`);
    const res = await rawRequest(
      'POST',
      new URL(checkoutUrl).pathname,
      { 'next-action': actionId, 'content-type': `multipart/form-data; boundary=${boundary}` },
      `${fields.join('')}--${boundary}--\r\n`,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'error', message: 'Validation error', error: { body: expect.stringContaining('fields') } });
  });

  it('still hands a well-formed multipart action on to Next.js, which runs it', async () => {
    const card = await createCard(biz.test);
    const link = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 2_500, card_number: card.card_number });
    const reference = link.body.data.link_reference;
    // The checkout page's own form, posted without JavaScript: the action is named inside the body.
    const boundary = 'formboundary';
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = `${part(`$ACTION_ID_${actionId}`, '')}${part('reference', reference)}${part('outcome', 'success')}--${boundary}--\r\n`;
    const res = await rawRequest('POST', new URL(link.body.data.checkout_url).pathname, { 'content-type': `multipart/form-data; boundary=${boundary}` }, body);
    expect(res.status).toBeLessThan(400);
    await expect.poll(async () => (await biz.test.get(`/api/v1/card/payment/${reference}/status`)).body.data.status).toBe('success');
  });
});

describe('an answer given before the upload was read', () => {
  it('stops reading the 256 MB upload and closes: 401, 404, 405 and a redirect', async () => {
    const pid = pidListeningOn(Number(new URL(inject('baseUrl')).port));
    const targets: [string, Record<string, string>, number][] = [
      ['/api/v1/card', {}, 401],
      ['/api/v1/nothing/here', { authorization: `Bearer ${biz.keys.test}` }, 404],
      ['/api/v1/banks', { authorization: `Bearer ${biz.keys.test}` }, 405],
      ['/cards', {}, 307],
    ];
    const results = [];
    for (const [path, headers, status] of targets) {
      const r = await uploadUntilClosed(path, headers, pid);
      console.log(
        `${status} ${path}: closed after ${r.sentMb.toFixed(1)} MB sent of 256 MB in ${r.seconds.toFixed(2)} s; server CPU ${r.cpuSeconds.toFixed(2)} s; peak RSS ${r.peakRssMb.toFixed(0)} MB`,
      );
      results.push({ path, status, r });
    }
    for (const { path, status, r } of results) {
      expect(Math.floor(r.status / 100), `${path} answered ${r.status}`).toBe(Math.floor(status / 100));
      expect(r.connection, path).toBe('close');
      expect(r.sentMb, path).toBeLessThan(32);
    }
  }, 180_000);
});
