import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import next from 'next';
import { clientAddress, trustedProxyHops } from '../lib/api/client-address';
import { lingerWhenBodyUnread } from '../lib/api/lingering-close';
import { MALFORMED_PATH_BODY, pathDecodes } from '../lib/api/request-path';
import { securityHeaders } from '../lib/api/security-headers';
import { ensureSecrets, readSettings } from '../lib/config';
import { createDb } from '../lib/db/client';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../lib/db/embedded';
import { applyMigrations } from '../lib/db/migrate';
import { startBackgroundWork } from '../lib/background';
import { seedIfEmpty } from '../lib/seed';

/** npm start: database (embedded unless DATABASE_URL), migrations, seed, build if needed, then serve. */
async function main() {
  const settings = readSettings();
  const secrets = ensureSecrets(settings);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = settings.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(path.join(settings.dataDir));
    databaseUrl = embedded.url;
    console.log(`Embedded PostgreSQL started (data in ${settings.dataDir})`);
  }
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    ADMIN_TOKEN: secrets.adminToken,
    AUTH_SECRET: secrets.authSecret,
    APP_URL: settings.appUrl,
    NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? settings.appUrl,
  });

  const { db, pool } = createDb(databaseUrl, 5);
  let stopWork = async () => {};
  let server: http.Server | undefined;
  let stopping = false;
  const shutdown = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    server?.close();
    await stopWork().catch(() => {});
    await pool.end().catch(() => {});
    await embedded?.stop().catch(() => {});
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());

  try {
    await applyMigrations(databaseUrl);
    await seedIfEmpty(db);
    if (!fs.existsSync(path.join(process.cwd(), process.env.NEXT_DIST_DIR || '.next', 'BUILD_ID'))) {
      console.log('No production build found: building (next build)...');
      const built = spawnSync('npx', ['next', 'build'], { stdio: 'inherit', env: process.env });
      if (built.status !== 0) throw new Error('next build failed');
    }
    const app = next({ dev: false, dir: process.cwd(), hostname: '0.0.0.0', port: settings.port });
    await app.prepare();
    const handle = app.getRequestHandler();
    const trustedHops = trustedProxyHops();
    const headers = securityHeaders({ https: settings.appUrl.startsWith('https:') });
    server = http.createServer((req, res) => {
      // Whatever the client wrote in X-Forwarded-For is replaced: sign-in and back office limits read this one address.
      req.headers['x-forwarded-for'] = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedHops);
      const { response, requestPolicy } = headers.for(req.url ?? '/');
      for (const [name, value] of response) res.setHeader(name, value);
      if (requestPolicy) req.headers['content-security-policy'] = requestPolicy;
      if (!pathDecodes(req.url ?? '/')) {
        res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' }).end(MALFORMED_PATH_BODY);
        return;
      }
      void handle(req, res);
    });
    lingerWhenBodyUnread(server);
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(settings.port, () => resolve());
    });
    stopWork = startBackgroundWork(db);
    console.log(`Gift card service listening on ${settings.appUrl} (API at ${settings.appUrl}/api/v1)`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    await shutdown(1);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
