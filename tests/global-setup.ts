import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../lib/db/embedded';
import { applyMigrations } from '../lib/db/migrate';
import { createMigratedTemplate, createRunDatabase, dropDatabases, ensureProductionBuild, startTestServer, type TestServer } from './test-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminToken: string;
    databaseUrl: string;
  }
}

/**
 * One PostgreSQL (a fresh database of this run on DATABASE_URL's server, or an
 * embedded server in a temporary folder) and one production build served over
 * real HTTP, shared by every test file.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let databaseUrl = process.env.DATABASE_URL;
  let runDatabase: string | undefined;
  if (databaseUrl) {
    // Its own database, so a run never meets what earlier runs or benchmarks left behind;
    // those of interrupted runs, no longer in use, go first.
    await dropDatabases(databaseUrl, `${new URL(databaseUrl).pathname.slice(1)}_run_`, false);
    databaseUrl = await createRunDatabase(databaseUrl, `run_${Date.now().toString(36)}_${process.pid}`);
    runDatabase = new URL(databaseUrl).pathname.slice(1);
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftcard-test-db-'));
    embedded = await startEmbeddedPostgres(dataDir);
    databaseUrl = embedded.url;
  }
  console.log(`tests use ${embedded ? 'an embedded PostgreSQL' : `database ${runDatabase} on DATABASE_URL's server`}`);
  const adminToken = 'adm_test_token_0123456789abcdef_0123456789';
  let server: TestServer;
  try {
    if (embedded) await Promise.all([applyMigrations(databaseUrl), createMigratedTemplate(databaseUrl)]);
    ensureProductionBuild();
    server = await startTestServer({ databaseUrl, adminToken });
  } catch (err) {
    await embedded?.stop();
    if (runDatabase) await dropDatabases(databaseUrl, runDatabase);
    throw err;
  }
  project.provide('baseUrl', server.baseUrl);
  project.provide('adminToken', adminToken);
  project.provide('databaseUrl', databaseUrl);
  return async () => {
    await server.stop();
    await embedded?.stop();
    if (runDatabase) await dropDatabases(databaseUrl, runDatabase);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
