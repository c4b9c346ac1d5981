import type { Socket } from 'node:net';

/** Long enough for a client to read the answer ahead of the reset; short enough that a flood of refused uploads holds few sockets. */
export const LINGER_MS = 500;

/**
 * When the server closes a connection whose request body it did not read (a 413, say), the
 * kernel answers the client's next bytes with a reset, and a client still writing can lose the
 * answer we already sent before it reads it. So, as Go's net/http does, we send our FIN first
 * and close the socket only once the client closes its side or LINGER_MS has passed.
 */
export function lingerOnClose(socket: Socket, ms = LINGER_MS): void {
  socket.destroySoon = function lingeringDestroySoon(this: Socket) {
    if (this.destroyed) return;
    const timer = setTimeout(() => this.destroy(), ms);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.once('end', () => this.destroy());
    if (this.writable) this.end();
  };
}
