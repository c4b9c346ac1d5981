#!/usr/bin/env bash
# Every suite: vitest (unit, PostgreSQL integration, HTTP API) then Playwright (browser).
set -euo pipefail
cd "$(dirname "$0")/.."
# The browser is found (or installed) first, so a missing one stops the run before minutes of tsc and vitest.
if compgen -G "e2e/*.spec.ts" > /dev/null; then
  CHROMIUM_PATH=$(bash scripts/find-browser.sh)
  export CHROMIUM_PATH
fi
bash scripts/ensure-haproxy.sh
# Debian's pgbouncer for tests/pgbouncer.test.ts, installed when missing and possible; without it that test is skipped.
PGBOUNCER_PATH=$(bash scripts/find-pgbouncer.sh) || true
export PGBOUNCER_PATH
npm run --silent lint
# Exports and files nothing uses, and packages used but not listed (knip.json says what the entry points are).
npx knip --no-progress
npx tsc --noEmit
npx vitest run
if compgen -G "e2e/*.spec.ts" > /dev/null; then
  npx playwright test
fi
