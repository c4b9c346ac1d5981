import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Long enough for a client to read the answer ahead of the reset; short enough that a flood of refused uploads holds few sockets. */
export const LINGER_MS = 500;

/**
 * When the server closes a connection whose request body it did not read (a 413, say), the
 * kernel answers the client's next bytes with a reset, and a client still writing can lose the
 * answer we already sent before it reads it. So, as Go's net/http does, such a connection sends
 * its FIN first, stops reading (a flood is held back by TCP, not read and thrown away), and is
 * closed ms later. A connection whose request was read to its end closes as Node.js closes it.
 *
 * Any answer that goes out before its request's body has arrived (a 401, 404, 405, a redirect)
 * says `Connection: close` and closes the same way: Node.js would otherwise read the rest of the
 * upload, however large, to keep the connection for another request.
 */
export function lingerWhenBodyUnread(server: Server, ms = LINGER_MS): void {
  const latest = new WeakMap<Socket, IncomingMessage>();
  // Ahead of the server's own handler, which may answer at once.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    latest.set(req.socket, req);
    closeWhenAnsweredEarly(req, res);
  });
  server.on('connection', (socket: Socket) => {
    const destroySoon = socket.destroySoon.bind(socket);
    socket.destroySoon = () => {
      if (socket.writable) socket.end();
      // A body that came with the request is parsed only after the answer finished: look once the parser has run.
      setImmediate(() => {
        if (socket.destroyed) return;
        if (latest.get(socket)?.complete !== false) return destroySoon();
        socket.pause();
        const timer = setTimeout(() => socket.destroy(), ms);
        timer.unref();
        socket.once('close', () => clearTimeout(timer));
      });
    };
  });
}

/** Headers are written once, by writeHead (an implicit header goes through it too): decide keep-alive there. */
function closeWhenAnsweredEarly(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (bodyPending(req)) this.shouldKeepAlive = false;
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

/** A request still sending its body; one sent without a body counts as read even before its parser says so. */
function bodyPending(req: IncomingMessage): boolean {
  if (req.complete) return false;
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}
