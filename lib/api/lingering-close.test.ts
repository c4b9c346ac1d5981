import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { lingerOnClose } from './lingering-close';

let server: http.Server | undefined;
afterEach(() => server?.close());

/** A server that refuses every upload at once, without reading it, and closes the connection. */
async function refusingServer(linger: boolean): Promise<number> {
  server = http.createServer((_req, res) => res.writeHead(413, { connection: 'close' }).end('too large'));
  if (linger) server.on('connection', (socket) => lingerOnClose(socket, 2_000));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as net.AddressInfo).port;
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
  await Promise.race([once(socket, 'close'), new Promise((r) => setTimeout(r, 3_000))]);
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

  it('closes when the client closes its side, or after the linger time if it never does', async () => {
    const port = await refusingServer(true);
    const closedAfter = async (allowHalfOpen: boolean) => {
      const serverClosed = once(server!, 'connection').then(([socket]) => new Promise((closed) => (socket as net.Socket).once('close', closed)));
      const client = net.connect({ port, host: '127.0.0.1', allowHalfOpen });
      await once(client, 'connect');
      const started = Date.now();
      client.resume().write('POST /upload HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}');
      await serverClosed;
      client.destroy();
      return Date.now() - started;
    };
    expect(await closedAfter(false)).toBeLessThan(1_000);
    expect(await closedAfter(true)).toBeGreaterThanOrEqual(1_900);
  });
});
