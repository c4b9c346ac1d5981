import { execFileSync } from 'node:child_process';
import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests against the production build, in the Chromium or Chrome that
 * scripts/find-browser.sh finds or installs (npm test runs it first and exports
 * CHROMIUM_PATH; a bare `npx playwright test` runs it here, once, as workers
 * inherit the variable). e2e/global-setup.ts starts the database and server and
 * hands their address to the specs through the environment.
 */
process.env.CHROMIUM_PATH ||= findBrowser();

function findBrowser(): string {
  try {
    return execFileSync('bash', [`${import.meta.dirname}/scripts/find-browser.sh`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  } catch {
    process.exit(1); // the script has said what to run
  }
}

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  globalSetup: './e2e/global-setup.ts',
  // Two workers share the machine's two cores: a test takes longer than alone, so it has more time.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // Each spec seeds businesses of its own, and a file's tests run in order in one worker.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS) || 2,
  retries: 0,
  reporter: [['list']],
  use: {
    screenshot: 'only-on-failure',
    // A trace's screencast took a sixth of the suite's time. Its DOM snapshots are kept where someone can open them;
    // CI keeps only the log of a clean clone, so there it records none.
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH,
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
        },
      },
    },
  ],
});
