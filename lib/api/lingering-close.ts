import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** Long enough for a client to read the answer ahead of the reset; short enough that a flood of refused uploads holds few sockets. */
const LINGER_MS = 500;

/**
 * When the server closes a connection whose request body it did not read (a 413, say), the
 * kernel answers the client's next bytes with a reset, and a client still writing can lose the
 * answer we already sent before it reads it. So, as Go's net/http does, such a connection sends
 * its FIN first, stops reading (a flood is held back by TCP, not read and thrown away), and is
 * closed ms later. A connection whose request was read to its end closes as Node.js closes it.
 */
export function lingerWhenBodyUnread(server: Server, ms = LINGER_MS): void {
  const latest = new WeakMap<Socket, IncomingMessage>();
  server.on('request', (req: IncomingMessage) => latest.set(req.socket, req));
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
