import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { instanceState } from './instance-state';

export interface Readiness {
  ready: boolean;
  checks: { database: boolean; migrations: boolean; workers: boolean; draining: boolean };
}

const CHECK_TIMEOUT_MS = 2_000;

/** The newest migration this build carries, by the journal's `when` (what drizzle records as created_at). */
let newest: number | undefined;
function newestMigration(): number {
  if (newest !== undefined) return newest;
  const journal = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'lib/db/migrations/meta/_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  newest = Math.max(...journal.entries.map((e) => e.when));
  return newest;
}

/**
 * Whether this instance should be sent traffic: the database answers, every
 * migration of this build is applied, the background workers run, and it is not
 * draining for a shutdown (then a balancer stops sending while requests finish).
 */
export async function checkReadiness(db: Db): Promise<Readiness> {
  let database = false;
  let migrations = false;
  try {
    const { rows } = await Promise.race([
      db.execute<{ newest: string | null }>(sql`SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations`),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS)),
    ]);
    database = true;
    migrations = Number(rows[0]?.newest ?? 0) >= newestMigration();
  } catch {
    /* database is false */
  }
  const workers = instanceState.workersRunning;
  const draining = instanceState.draining;
  return { ready: database && migrations && workers && !draining, checks: { database, migrations, workers, draining } };
}
