import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureSecrets, readSettings } from './config';

describe('secrets at start', () => {
  const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'giftcard-config-'));

  it('refuses an ADMIN_TOKEN shorter than 32 characters in production', () => {
    const env = { NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', AUTH_SECRET: 's'.repeat(40), DATA_DIR: dataDir() } as NodeJS.ProcessEnv;
    expect(() => ensureSecrets(readSettings({ ...env, ADMIN_TOKEN: 'a'.repeat(31) }), { ...env, ADMIN_TOKEN: 'a'.repeat(31) })).toThrow(/shorter than 32/);
    expect(ensureSecrets(readSettings(env), { ...env, ADMIN_TOKEN: 'a'.repeat(32) }).adminToken).toBe('a'.repeat(32));
  });

  it('takes a short token outside production, and generates a long one when none is given', () => {
    const env = { DATA_DIR: dataDir() } as unknown as NodeJS.ProcessEnv;
    expect(ensureSecrets(readSettings(env), { ...env, ADMIN_TOKEN: 'short' }).adminToken).toBe('short');
    expect(ensureSecrets(readSettings(env), env).adminToken.length).toBeGreaterThanOrEqual(32);
  });
});

describe('the demo business at start', () => {
  const seeds = (env: Record<string, string>) => readSettings(env as NodeJS.ProcessEnv).seedDemo;

  it('is made for a developer, and in production only when SEED_DEMO=1 asks', () => {
    expect(seeds({})).toBe(true);
    expect(seeds({ NODE_ENV: 'development' })).toBe(true);
    expect(seeds({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y' })).toBe(false);
    expect(seeds({ NODE_ENV: 'production' })).toBe(false);
    expect(seeds({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', SEED_DEMO: '1' })).toBe(true);
    expect(seeds({ SEED_DEMO: '0' })).toBe(false);
  });

  it('refuses a SEED_DEMO other than 1 or 0', () => {
    expect(() => seeds({ NODE_ENV: 'production', SEED_DEMO: 'yes' })).toThrow('SEED_DEMO must be 1 or 0, not "yes".');
  });
});
