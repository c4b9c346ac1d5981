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
# Lint, knip (exports and files nothing uses, packages used but not listed: knip.json says what the entry points are)
# and tsc are independent and mostly single-threaded: side by side on two cores they take about 45 s, not 100.
# Each one's output is printed whole, in this order, and any failure stops the run.
checks=$(mktemp -d)
trap 'rm -rf "$checks"' EXIT
npm run --silent lint > "$checks/lint" 2>&1 &
lint=$!
npx knip --no-progress > "$checks/knip" 2>&1 &
knip=$!
npx tsc --noEmit > "$checks/tsc" 2>&1 &
tsc=$!
# The production build both suites test (when sources changed since the last), beside the checks: its and their
# single-threaded stretches leave a core each other can use (checks then build 108-112 s, side by side 86-101 s).
npx tsx -e "import { ensureProductionBuild } from './tests/test-server'; ensureProductionBuild();" > "$checks/build" 2>&1 &
build=$!
failed=""
for check in lint knip tsc build; do
  wait "${!check}" || failed="$failed $check"
  cat "$checks/$check"
done
if [ -n "$failed" ]; then
  echo "failed:$failed" >&2
  exit 1
fi
npx vitest run
if compgen -G "e2e/*.spec.ts" > /dev/null; then
  npx playwright test
fi
