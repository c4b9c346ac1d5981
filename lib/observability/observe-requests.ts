import type http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sha256Hex } from '../ids';
import { JOB_KINDS } from '../jobs/job-queue';
import { logger } from './logger';
import { scrub } from './scrub';
import { metrics } from './metrics';
import { routePatterns } from './route-patterns';
import { type RequestContext, requestIdFrom, runInRequest } from './request-context';

/**
 * Wraps the server's request listener: each request gets its id (the client's
 * X-Request-Id when sane, else a new one), echoed on the answer and in every log
 * line written while it is handled; when it ends, one log line and one histogram
 * observation by route pattern and status. GET /metrics is answered here, before
 * anything else, so a scrape never counts against a limit.
 */
export function observeRequests(listener: http.RequestListener, o: { db: Db; distDir: string }): http.RequestListener {
  const routeOf = routePatterns(path.resolve(o.distDir));
  const m = metrics();
  const logs = logger.isLevelEnabled('info');
  return (req, res) => {
    const id = requestIdFrom(req.headers['x-request-id']);
    req.headers['x-request-id'] = id;
    res.setHeader('x-request-id', id);
    const url = req.url ?? '/';
    if (url === '/metrics' || url.startsWith('/metrics?')) return void serveMetrics(req, res, o.db);
    const context: RequestContext = { id };
    if (m || logs) {
      const started = performance.now();
      res.once('close', () => {
        const seconds = (performance.now() - started) / 1000;
        const query = url.indexOf('?');
        const route = routeOf(query === -1 ? url : url.slice(0, query));
        const status = res.writableFinished ? res.statusCode : 499;
        m?.requestSeconds.observe({ route, method: req.method ?? '', status }, seconds);
        if (!logs) return;
        const line = {
          request_id: id,
          method: req.method,
          route,
          status,
          ms: Math.round(seconds * 10_000) / 10,
          business_id: context.businessId,
          mode: context.mode,
        };
        if (logger.isLevelEnabled('debug')) logger.info({ ...line, url: scrub(url), headers: scrubbedHeaders(req.headers) }, 'request');
        else logger.info(line, 'request');
      });
    }
    runInRequest(context, () => listener(req, res));
  };
}

/** At debug level the request line carries its path and headers; secrets in them are masked, cookies and credentials dropped. */
function scrubbedHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = name === 'authorization' || name === 'cookie' ? '[redacted]' : scrub(String(value));
  }
  return out;
}

const envelope = (res: http.ServerResponse, status: number, message: string, error: string, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify({ status: 'error', message, error }));

function tokenMatches(header: string | undefined, expected: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(Buffer.from(sha256Hex(given)), Buffer.from(sha256Hex(expected)));
}

/** GET /metrics: Prometheus text behind METRICS_TOKEN (Bearer); 404 when it is unset, 401 without it. */
async function serveMetrics(req: http.IncomingMessage, res: http.ServerResponse, db: Db): Promise<void> {
  const token = process.env.METRICS_TOKEN;
  const m = metrics();
  if (!token || !m) return void envelope(res, 404, 'Not found', 'Nothing is served at /metrics.');
  if (req.method !== 'GET' && req.method !== 'HEAD') return void envelope(res, 405, 'Method not allowed', 'This path answers GET.', { allow: 'GET' });
  if (!tokenMatches(req.headers.authorization, token)) {
    return void envelope(res, 401, 'Unauthorized', 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.', { 'www-authenticate': 'Bearer' });
  }
  try {
    await collectQueued(db);
  } catch (err) {
    // The other figures are still worth a scrape; the queued ones keep their last values.
    logger.warn({ err }, 'metrics: outbox and fold figures not read');
  }
  const text = await m.registry.metrics();
  res.writeHead(200, { 'content-type': m.registry.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text);
}

/** The outbox's depth and oldest age, each list's fold lag and the dead jobs: one statement, cut off after half a second. */
async function collectQueued(db: Db): Promise<void> {
  const m = metrics()!;
  const { rows } = await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL statement_timeout = 500`);
    return tx.execute<{ depth: number; oldest: number | null; payouts: number | null; payments: number | null; dead: Record<string, number> | null }>(sql`
      SELECT count(*)::int AS depth, extract(epoch FROM now() - min(created_at))::float8 AS oldest,
        (SELECT jsonb_object_agg(kind, n) FROM (SELECT kind, count(*)::int AS n FROM jobs WHERE state = 'dead' GROUP BY kind) d) AS dead,
        (SELECT extract(epoch FROM now() - created_at)::float8 FROM payouts
          WHERE id > (SELECT folded_through FROM history_folds WHERE list = 'payouts') ORDER BY id LIMIT 1) AS payouts,
        (SELECT extract(epoch FROM now() - created_at)::float8 FROM payments
          WHERE id > (SELECT folded_through FROM history_folds WHERE list = 'payments') ORDER BY id LIMIT 1) AS payments
      FROM webhook_deliveries WHERE state = 'pending'`);
  });
  const r = rows[0];
  m.outboxDepth.set(r.depth);
  m.outboxOldestSeconds.set(r.oldest ?? 0);
  m.foldLagSeconds.set({ list: 'payouts' }, r.payouts ?? 0);
  m.foldLagSeconds.set({ list: 'payments' }, r.payments ?? 0);
  // Every kind is written, a kind with none at 0, so a dead job a person settled leaves the gauge.
  for (const kind of JOB_KINDS) m.jobsDead.set({ kind }, r.dead?.[kind] ?? 0);
}
