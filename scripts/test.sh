#!/usr/bin/env bash
# Every suite: vitest (unit, PostgreSQL integration, HTTP API) then Playwright (browser).
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc --noEmit
npx vitest run
if compgen -G "e2e/*.spec.ts" > /dev/null; then
  npx playwright test
fi
