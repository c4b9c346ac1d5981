// Before Next.js and our own modules load: they are compiled without their source maps unless asked for.
import './source-maps';
// Then: with OTEL_EXPORTER_OTLP_ENDPOINT set, tracing patches http and pg before anything else loads them.
import { stopTracing } from '../lib/observability/tracing';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import next from 'next';
// The multipart parser Next.js decodes actions with, so a body it would choke on is refused first.
import busboy from 'next/dist/compiled/busboy';
import {
  checkActionBody,
  envelopeOf,
  MAX_ACTION_BODY_BYTES,
  MAX_ACTION_FIELDS,
  mayBeServerAction,
  type MultipartField,
  type MultipartFields,
} from '../lib/api/action-body';
import { rawRefusal, refuseMethod, refuseUnparsedMethod } from '../lib/api/api-methods';
import { ENVELOPE_REFUSAL, giveBareRefusalsABody } from '../lib/api/bare-refusals';
import { PAGE_REFUSAL } from '../lib/api/refusal-page';
import { CLEAR_CALLBACK_COOKIES, holdsBadCallbackCookie, withoutCallbackCookies } from '../lib/auth/callback-cookie';
import { clientAddress, trustedProxyHops } from '../lib/api/client-address';
import { PUBLIC_PAGE_HEADER, PUBLIC_PAGE_LANG_HEADER } from '../lib/i18n/checkout-locale';
import { holdRequestBody } from '../lib/api/hold-request-body';
import { LINGER_MS, lingerWhenBodyUnread } from '../lib/api/lingering-close';
import { MALFORMED_PATH_BODY, pathDecodes } from '../lib/api/request-path';
import { securityHeaders } from '../lib/api/security-headers';
import { positiveEnv } from '../lib/config';
import { ensureSecrets, readSettings } from '../lib/config';
import { ServiceError } from '../lib/errors';
import { closeDb, createDb } from '../lib/db/client';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../lib/db/embedded';
import { applyMigrations } from '../lib/db/migrate';
import { startBackgroundWork } from '../lib/background';
import { drainable } from '../lib/lifecycle/graceful-shutdown';
import { seedIfEmpty } from '../lib/seed';
import { registerProviders } from '../lib/wire-providers';
import { routeConsoleToLogger } from '../lib/observability/console-to-log';
import { logger } from '../lib/observability/logger';
import { watchPool } from '../lib/observability/metrics';
import { observeRequests } from '../lib/observability/observe-requests';

/** npm start: database (embedded unless DATABASE_URL), migrations, the demo (unless production), build if needed, then serve. */
async function main() {
  // Next.js and the libraries it loads write errors with console.*: as JSON lines like every other.
  routeConsoleToLogger(logger);
  const settings = readSettings();
  const secrets = ensureSecrets(settings);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = settings.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(path.join(settings.dataDir));
    databaseUrl = embedded.url;
    logger.info(`Embedded PostgreSQL started (data in ${settings.dataDir})`);
  }
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    ADMIN_TOKEN: secrets.adminToken,
    AUTH_SECRET: secrets.authSecret,
    APP_URL: settings.appUrl,
    NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? settings.appUrl,
  });

  // Before Next.js loads: its instrumentation hook registers the same wiring again for the route handlers' copy of the modules.
  registerProviders();
  const { db, pool } = createDb(databaseUrl, 5);
  watchPool('background', pool);
  let stopWork = async () => {};
  let server: http.Server | undefined;
  let drain: ReturnType<typeof drainable> | undefined;
  let stopping = false;
  const shutdown = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    const graceMs = positiveEnv('SHUTDOWN_GRACE_MS', 10_000);
    const settleMs = Number(process.env.SHUTDOWN_SETTLE_MS) || 0;
    await Promise.all([
      drain ? drain({ graceMs, settleMs, log: (l) => logger.info(l) }) : server?.close(),
      // Requests still running may write outbox events: the workers stop beside them, and any delivery of theirs is handed back.
      stopWork().catch(() => {}),
    ]);
    // Every pool ends before the database may stop: an idle connection PostgreSQL ends is not an error to log.
    await Promise.all([pool.end(), closeDb()]).catch(() => {});
    await stopTracing().catch(() => {});
    await embedded?.stop().catch(() => {});
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());

  try {
    // Migrations hold a session-level advisory lock: past a transaction-mode pooler they need a direct connection.
    await applyMigrations(process.env.DATABASE_DIRECT_URL || databaseUrl);
    if (settings.seedDemo) await seedIfEmpty(db);
    if (!fs.existsSync(path.join(process.cwd(), process.env.NEXT_DIST_DIR || '.next', 'BUILD_ID'))) {
      logger.info('No production build found: building (next build)...');
      const built = spawnSync('npx', ['next', 'build'], { stdio: 'inherit', env: process.env });
      if (built.status !== 0) throw new Error('next build failed');
    }
    const app = next({ dev: false, dir: process.cwd(), hostname: '0.0.0.0', port: settings.port });
    await app.prepare();
    const handle = app.getRequestHandler();
    const trustedHops = trustedProxyHops();
    const headers = securityHeaders({ https: settings.appUrl.startsWith('https:') });
    const publicFiles = new Set(
      fs.readdirSync(path.join(process.cwd(), 'public'), { recursive: true, encoding: 'utf8' }).map((f) => `/${f.split(path.sep).join('/')}`),
    );
    const isStatic = (p: string) => publicFiles.has(p);
    const listener: http.RequestListener = (req, res) => {
      // Whatever the client wrote in X-Forwarded-For is replaced: sign-in and back office limits read this one address.
      req.headers['x-forwarded-for'] = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedHops);
      // Only proxy.ts names a public page to the language lookup: a client's copy goes, on paths the proxy skips too.
      delete req.headers[PUBLIC_PAGE_HEADER];
      delete req.headers[PUBLIC_PAGE_LANG_HEADER];
      const { response, requestPolicy } = headers.for(req.url ?? '/');
      for (const [name, value] of response) res.setHeader(name, value);
      if (requestPolicy) req.headers['content-security-policy'] = requestPolicy;
      if (!pathDecodes(req.url ?? '/')) {
        res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' }).end(MALFORMED_PATH_BODY);
        return;
      }
      const refusedMethod = refuseMethod(req.method ?? '', req.url ?? '/', isStatic);
      if (refusedMethod) {
        const type = refusedMethod.contentType ? { 'content-type': refusedMethod.contentType } : {};
        res.writeHead(refusedMethod.status, { ...type, allow: refusedMethod.allow }).end(refusedMethod.body);
        return;
      }
      const url = req.url ?? '/';
      // next-auth answers a stored callback address that is no path of ours with a 500 on every page: it is
      // dropped and cleared (its own routes refuse it with a 400 and clear it too).
      if (!url.startsWith('/api/auth/') && holdsBadCallbackCookie(req.headers.cookie)) {
        req.headers.cookie = withoutCallbackCookies(req.headers.cookie ?? '');
        res.appendHeader('set-cookie', CLEAR_CALLBACK_COOKIES);
      }
      if (!url.startsWith('/_next/') && !isStatic(url.split('?', 1)[0]))
        giveBareRefusalsABody(req, res, url.startsWith('/api/') ? ENVELOPE_REFUSAL : PAGE_REFUSAL);
      if (mayBeServerAction(req.method, req.url ?? '/', req.headers)) return void handleAction(req, res);
      void handle(req, res);
    };
    server = http.createServer(observeRequests(listener, { db, distDir: process.env.NEXT_DIST_DIR || '.next' }));
    // An action's body is read and checked here first: Next.js decodes it before any of our code runs.
    const handleAction = async (req: http.IncomingMessage, res: http.ServerResponse) => {
      const held = await holdRequestBody(req, MAX_ACTION_BODY_BYTES);
      if (held.kind === 'gone') return;
      try {
        if (held.kind === 'too_large') throw new ServiceError('payload_too_large', 'The request body is larger than 1 MB.');
        await checkActionBody(held.body, req.headers, multipartFields);
      } catch (err) {
        const { status, body } = envelopeOf(err as ServiceError);
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...(status === 413 ? { connection: 'close' } : {}) }).end(body);
        return;
      }
      held.release();
      void handle(req, res);
    };
    // A method Node.js's parser does not know never reaches the handler above.
    server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
      // As Node.js's own handler: nothing is written over an answer already under way.
      const answering = (socket as typeof socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
      if (!socket.writable || answering || err.code === 'ECONNRESET') return void socket.destroy();
      const refused = err.code === 'HPE_INVALID_METHOD' ? refuseUnparsedMethod(err.rawPacket, isStatic) : undefined;
      if (!refused) return void socket.end(`HTTP/1.1 ${PARSER_ERROR_STATUS[err.code ?? ''] ?? '400 Bad Request'}\r\nconnection: close\r\n\r\n`);
      socket.end(rawRefusal(refused, headers.for('/api/').response));
      socket.pause();
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    });
    lingerWhenBodyUnread(server);
    drain = drainable(server);
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(settings.port, () => resolve());
    });
    stopWork = startBackgroundWork(db);
    logger.info(`Gift card service listening on ${settings.appUrl} (API at ${settings.appUrl}/api/v1)`);
  } catch (err) {
    logger.error({ err }, 'start failed');
    await shutdown(1);
  }
}

const PARSER_ERROR_STATUS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/** The text fields of a multipart body as Next.js's own parser reads them; rejects on a malformed one. */
const multipartFields: MultipartFields = (body, headers) =>
  new Promise((resolve, reject) => {
    const fields: MultipartField[] = [];
    const parser = busboy({ headers, defParamCharset: 'utf8', limits: { fieldSize: MAX_ACTION_BODY_BYTES, fields: MAX_ACTION_FIELDS } });
    parser.on('field', (name: string, text: string) => fields.push({ name, text }));
    // React follows "$N" references from field to field as it decodes: thousands of one-level fields chain as deep as one deep field.
    parser.on('fieldsLimit', () => reject(new Error('too many fields')));
    parser.on('file', (name: string, stream: NodeJS.ReadableStream) => {
      fields.push({ name, text: null });
      stream.resume();
    });
    parser.on('error', reject);
    parser.on('close', () => resolve(fields));
    parser.end(body);
  });

main().catch((err) => {
  logger.error({ err }, 'start failed');
  process.exit(1);
});
