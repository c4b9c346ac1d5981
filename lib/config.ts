import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const MIN_ADMIN_TOKEN_LENGTH = 32;

export interface Settings {
  port: number;
  dataDir: string;
  appUrl: string;
  databaseUrl?: string;
  production: boolean;
  /** Whether npm start makes the demo business on an empty database. */
  seedDemo: boolean;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const port = Number(env.PORT ?? 3000);
  const dataDir = path.resolve(env.DATA_DIR ?? '.data');
  return {
    port,
    dataDir,
    appUrl: (env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    databaseUrl: env.DATABASE_URL || undefined,
    production: env.NODE_ENV === 'production' && !!env.DATABASE_URL,
    seedDemo: seedDemo(env),
  };
}

/** The demo prints its owner's password and live API key to the log: under NODE_ENV=production only SEED_DEMO=1 makes it. */
function seedDemo(env: NodeJS.ProcessEnv): boolean {
  if (env.SEED_DEMO === undefined || env.SEED_DEMO === '') return env.NODE_ENV !== 'production';
  if (env.SEED_DEMO === '1' || env.SEED_DEMO === '0') return env.SEED_DEMO === '1';
  throw new Error(`SEED_DEMO must be 1 or 0, not ${JSON.stringify(env.SEED_DEMO)}.`);
}

/**
 * AUTH_SECRET and ADMIN_TOKEN: from the environment, or generated once and kept
 * under DATA_DIR. Production refuses to invent them.
 */
export function ensureSecrets(settings: Settings, env: NodeJS.ProcessEnv = process.env): { authSecret: string; adminToken: string } {
  const missing = (['AUTH_SECRET', 'ADMIN_TOKEN'] as const).filter((k) => !env[k]);
  if (missing.length && settings.production) {
    throw new Error(`Refusing to start in production without ${missing.join(' and ')}: set them in the environment.`);
  }
  // The back office moves money: in production a guessable token is refused, as a missing one is.
  if (env.NODE_ENV === 'production' && env.ADMIN_TOKEN && env.ADMIN_TOKEN.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new Error(`Refusing to start in production with an ADMIN_TOKEN shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters.`);
  }
  let stored: Record<string, string> = {};
  const file = path.join(settings.dataDir, 'secrets.json');
  if (missing.length) {
    fs.mkdirSync(settings.dataDir, { recursive: true });
    if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    let changed = false;
    for (const k of missing) {
      if (!stored[k]) {
        stored[k] = (k === 'ADMIN_TOKEN' ? 'adm_' : '') + randomBytes(32).toString('base64url');
        changed = true;
      }
    }
    if (changed) fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return { authSecret: env.AUTH_SECRET || stored.AUTH_SECRET, adminToken: env.ADMIN_TOKEN || stored.ADMIN_TOKEN };
}

/** A positive number from the environment, or the fallback when it is unset or not one. */
export function positiveEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
