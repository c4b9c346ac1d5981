import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export type ReceiverHandler = (req: ReceivedRequest) => Reply | Promise<Reply>;

/** A real HTTP server on 127.0.0.1 that records every request and answers as the test says (200 by default). */
export async function startReceiver(handler: ReceiverHandler = () => ({ status: 200 })) {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const received = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
      requests.push(received);
      const reply = await handler(received);
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body ?? '');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    /** Polls until pred holds for the requests so far. */
    async waitFor(pred: (requests: ReceivedRequest[]) => boolean, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!pred(requests)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms (${requests.length} requests)`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
