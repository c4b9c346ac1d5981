import type http from 'node:http';
import { startDraining } from './instance-state';

export interface DrainOptions {
  /** How long requests in flight may take to finish before their connections are cut (SHUTDOWN_GRACE_MS). */
  graceMs: number;
  /** How long to keep serving while /api/ready answers 503, so a balancer sees it before the port closes (SHUTDOWN_SETTLE_MS). */
  settleMs: number;
  log?: (line: string) => void;
}

/**
 * Counts the requests in flight on `server` and answers a drain: /api/ready
 * turns 503 and live streams are told to reconnect; after settleMs the port
 * closes, idle keep-alive connections close, and every answer from then on says
 * `Connection: close` and closes its connection; it resolves once the last
 * request has finished, or after graceMs with the rest cut.
 */
export function drainable(server: http.Server): (opts: DrainOptions) => Promise<void> {
  const inFlight = new Set<http.ServerResponse>();
  let closing = false;
  let lastDone: (() => void) | undefined;
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    if (closing) res.shouldKeepAlive = false;
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (!closing) return;
      server.closeIdleConnections();
      if (inFlight.size === 0) lastDone?.();
    });
  });

  return async ({ graceMs, settleMs, log = () => {} }) => {
    startDraining();
    if (settleMs > 0) await new Promise((r) => setTimeout(r, settleMs));
    closing = true;
    for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    log(`draining: ${inFlight.size} request(s) in flight, up to ${graceMs} ms`);
    const finished = inFlight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (lastDone = resolve));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([finished.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs)))]);
    clearTimeout(timer);
    if (timedOut) log(`drain: ${inFlight.size} request(s) still running after ${graceMs} ms, cut`);
    server.closeAllConnections();
    await closed;
  };
}
