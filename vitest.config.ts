import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const ROOT = import.meta.dirname;
const UNIT_DIRS = ['lib', 'components'];
/** Rules over the source itself (imports, layers): no database, no server. */
const RULES = 'tests/rules/**/*.test.ts';

/** Test files under lib/ and components/ that reach for the shared server or database (through tests/ or inject). */
function needsServer(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.test.ts') && /from ['"](?:\.\.\/)+tests\/|\binject\(/.test(fs.readFileSync(path.join(ROOT, rel), 'utf8'))) found.push(rel);
    }
  };
  for (const d of UNIT_DIRS) walk(d);
  return found;
}

const serverFiles = needsServer();

// Two projects: `unit` needs neither PostgreSQL nor a build (`npx vitest run --project unit` takes seconds);
// `integration` gets the shared PostgreSQL and production server of tests/global-setup.ts.
export default defineConfig({
  resolve: { alias: { '@': path.resolve(ROOT) } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: [...UNIT_DIRS.map((d) => `${d}/**/*.test.ts`), RULES], exclude: serverFiles } },
      {
        extends: true,
        test: { name: 'integration', include: ['tests/**/*.test.ts', ...serverFiles], exclude: [RULES], globalSetup: ['tests/global-setup.ts'] },
      },
    ],
  },
});
