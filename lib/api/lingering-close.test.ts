import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { lingerWhenBodyUnread } from './lingering-close';

const MB = 1024 * 1024;
const LINGER = 1_000;
let server: http.Server | undefined;
afterEach(() => server?.close());

/** A server that refuses every upload at once, without reading it, and closes the connection. */
async function refusingServer(linger: boolean): Promise<number> {
  server = http.createServer((_req, res) => res.writeHead(413, { connection: 'close' }).end('too large'));
  if (linger) lingerWhenBodyUnread(server, LINGER);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as net.AddressInfo).port;
}

/** The next connection's socket on the server: when it closed (ms after `from`) and how much it read. */
function nextServerSocket(from: () => number): Promise<{ closedAfter: number; bytesRead: number }> {
  return once(server!, 'connection').then(
    ([socket]) =>
      new Promise((resolve) =>
        (socket as net.Socket).once('close', () => resolve({ closedAfter: Date.now() - from(), bytesRead: (socket as net.Socket).bytesRead })),
      ),
  );
}

/** Sends a body the server never reads, keeps writing after the answer is on its way, then reads what came back. */
async function uploadAndRead(port: number): Promise<{ received: string; error?: string }> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.pause();
  let error: string | undefined;
  socket.on('error', (e: NodeJS.ErrnoException) => {
    error = e.code;
  });
  socket.write('POST /upload HTTP/1.1\r\nhost: x\r\ncontent-length: 10000000\r\n\r\n');
  socket.write(Buffer.alloc(256 * 1024, 0x61));
  await new Promise((r) => setTimeout(r, 200));
  socket.write(Buffer.alloc(64 * 1024, 0x61));
  await new Promise((r) => setTimeout(r, 200));
  let received = '';
  socket.on('data', (d) => {
    received += d;
  });
  socket.resume();
  await Promise.race([once(socket, 'close').catch(() => {}), new Promise((r) => setTimeout(r, 3_000))]);
  socket.destroy();
  return { received, error };
}

describe('closing a connection whose upload was refused', () => {
  it('lets a client still writing read the answer', async () => {
    const answer = await uploadAndRead(await refusingServer(true));
    expect(answer.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.received).toContain('too large');
  });

  it('loses that answer to the reset without lingering (the failure this guards against)', async () => {
    const answer = await uploadAndRead(await refusingServer(false));
    expect(answer.received).toBe('');
    expect(answer.error).toMatch(/ECONNRESET|EPIPE/);
  });

  it('reads nothing more from a client that floods on after the answer, and closes after the linger time', async () => {
    const port = await refusingServer(true);
    let started = 0;
    const closed = nextServerSocket(() => started);
    const client = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    client.on('error', () => {});
    await once(client, 'connect');
    started = Date.now();
    client.write('POST /upload HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n');
    const chunk = Buffer.concat([Buffer.from(`${(64 * 1024).toString(16)}\r\n`), Buffer.alloc(64 * 1024, 0x61), Buffer.from('\r\n')]);
    let flooding = true;
    void closed.then(() => {
      flooding = false;
    });
    while (flooding && !client.destroyed) {
      if (client.write(chunk)) await new Promise((r) => setImmediate(r));
      else await Promise.race([once(client, 'drain').catch(() => {}), closed]);
    }
    client.destroy();
    const { closedAfter, bytesRead } = await closed;
    expect(closedAfter).toBeGreaterThanOrEqual(LINGER - 50);
    // Without the pause, Node.js read on at loopback speed until the close: hundreds of MB in a second.
    expect(bytesRead).toBeLessThan(16 * MB);
  });

  it('closes a connection whose request was read to its end at once', async () => {
    const port = await refusingServer(true);
    let started = 0;
    const closed = nextServerSocket(() => started);
    const client = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    await once(client, 'connect');
    started = Date.now();
    client.resume().write('POST /upload HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}');
    const { closedAfter } = await closed;
    client.destroy();
    expect(closedAfter).toBeLessThan(LINGER / 2);
  });
});

describe('an answer given before the upload was read', () => {
  it('stops reading and closes the connection instead of reading the whole upload to keep it alive', async () => {
    server = http.createServer((_req, res) => res.writeHead(401, { 'content-type': 'text/plain' }).end('who are you'));
    lingerWhenBodyUnread(server, LINGER);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as net.AddressInfo).port;
    const closed = nextServerSocket(() => 0);
    const client = net.connect({ port, host: '127.0.0.1' });
    client.on('error', () => {});
    await once(client, 'connect');
    let received = '';
    client.on('data', (d) => {
      received += d;
    });
    client.write('POST /upload HTTP/1.1\r\nhost: x\r\ncontent-length: 268435456\r\n\r\n');
    let sent = 0;
    let done = false;
    void closed.then(() => {
      done = true;
    });
    const block = Buffer.alloc(64 * 1024, 0x61);
    while (!done && !client.destroyed && sent < 256 * MB) {
      sent += block.length;
      if (client.write(block)) await new Promise((r) => setImmediate(r));
      else await Promise.race([once(client, 'drain').catch(() => {}), closed]);
    }
    client.destroy();
    const { bytesRead } = await closed;
    console.log(`401 before the body: the server read ${(bytesRead / MB).toFixed(1)} MB of a 256 MB upload`);
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(bytesRead).toBeLessThan(16 * MB);
  });
});
