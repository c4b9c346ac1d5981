import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../lib/db/embedded';
import { applyMigrations } from '../lib/db/migrate';
import { ensureProductionBuild, startTestServer } from '../tests/test-server';

/**
 * The same harness as the vitest suites: PostgreSQL (DATABASE_URL, or an
 * embedded server in a temporary folder) and the production build over real
 * HTTP. Specs read E2E_BASE_URL and E2E_ADMIN_TOKEN; workers inherit them.
 */
export default async function globalSetup() {
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftcard-e2e-db-'));
    embedded = await startEmbeddedPostgres(dataDir);
    databaseUrl = embedded.url;
  }
  await applyMigrations(databaseUrl);
  ensureProductionBuild();
  const adminToken = 'adm_e2e_token_0123456789abcdef_0123456789';
  // The card expiry sweep every second, not every 30 s: card-expiry.spec.ts waits for it to expire a card it backdated.
  const server = await startTestServer({ databaseUrl, adminToken, env: { CARD_EXPIRY_SWEEP_MS: '1000' } }).catch(async (err) => {
    await embedded?.stop();
    throw err;
  });
  await warmUp(server.baseUrl);
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_ADMIN_TOKEN = adminToken;
  // Specs that must shape a history the API cannot make (backdated ledger entries) reach the same database.
  process.env.E2E_DATABASE_URL = databaseUrl;
  return async () => {
    await server.stop();
    await embedded?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

/**
 * Opens each page once, signed out (the dashboard's redirect to sign-in still loads the page's code), so the first
 * spec to reach a page does not pay for loading it: on a loaded machine the first sign-in took 11 s of a 60 s test.
 */
async function warmUp(baseUrl: string) {
  const paths = [
    '/login',
    '/',
    '/cards',
    '/cards/0',
    '/cards/new',
    '/payouts',
    '/payouts/new',
    '/payments',
    '/payments/new',
    '/reports',
    '/developers',
    '/team',
    '/audit',
    '/account',
    '/account/two-factor',
    '/search',
  ];
  for (const path of paths) await fetch(`${baseUrl}${path}`, { redirect: 'manual' }).then((r) => r.arrayBuffer());
}
