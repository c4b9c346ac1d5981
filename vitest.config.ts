import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
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

/**
 * The integration files that take a minute or more (a crash test, the fleet, Chapa's retries, the model and fuzz
 * runs), longest first. Vitest starts the longest file first when its cache has every file's last duration; a clean
 * clone (CI) has none and would start the largest files first, so a short file of a long test (crash.test.ts) started
 * among the last and held one worker alone at the end.
 */
const LONGEST_FIRST = [
  'tests/chapa-payouts.test.ts',
  'tests/hardening/fleet.test.ts',
  'tests/hardening/crash.test.ts',
  'tests/hardening/ledger-model.test.ts',
  'tests/payouts-concurrency.test.ts',
  'tests/hardening/no-server-errors.test.ts',
  'tests/hardening/fuzz.test.ts',
  'tests/chapa-payouts-crash.test.ts',
  'tests/hardening/expiry-crash.test.ts',
  'tests/api/webhooks-delivery.test.ts',
  'tests/chapa-payments.test.ts',
  'tests/read-replica.test.ts',
  'tests/pgbouncer.test.ts',
  'tests/hardening/graceful-shutdown.test.ts',
  'tests/holds-expiry-crash.test.ts',
  'tests/uploads-crash.test.ts',
  'tests/payout-memory.test.ts',
];
for (const f of LONGEST_FIRST) if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`vitest.config.ts: LONGEST_FIRST names ${f}, which is gone`);

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const key = (f: TestSpecification) => path.relative(ROOT, f.moduleId);
    if (sorted.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${key(f)}`))) return sorted;
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(key(f));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

// Two projects: `unit` needs neither PostgreSQL nor a build (`npx vitest run --project unit` takes seconds);
// `integration` gets the shared PostgreSQL and production server of tests/global-setup.ts.
export default defineConfig({
  resolve: { alias: { '@': path.resolve(ROOT) } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Three on two cores: a test waiting out a retry, a timeout or a restart leaves its core to the others. On a
    // clean clone the integration files took 575 s on two workers, 492 s on three and 494 s on four. Two on a server
    // of one's own (DATABASE_URL), whose stock max_connections of 100 the third worker's servers could pass.
    maxWorkers: Number(process.env.VITEST_WORKERS) || (process.env.DATABASE_URL ? 2 : 3),
    reporters: ['default'],
    sequence: { sequencer: LongestFirst },
    projects: [
      // Unit files share their worker's modules; each imported them anew (55 files: 16.9 s and 27 s of CPU, shared 7.8 s and 11 s).
      { extends: true, test: { name: 'unit', include: [...UNIT_DIRS.map((d) => `${d}/**/*.test.ts`), RULES], exclude: serverFiles, isolate: false } },
      {
        extends: true,
        test: { name: 'integration', include: ['tests/**/*.test.ts', ...serverFiles], exclude: [RULES], globalSetup: ['tests/global-setup.ts'] },
      },
    ],
  },
});
