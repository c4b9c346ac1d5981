#!/usr/bin/env bash
# Prints the path of a Chromium or Chrome for Playwright (messages go to stderr).
# Found: CHROMIUM_PATH, one on PATH, or one `npx playwright install` already fetched.
# Missing: Debian's chromium through apt-get when root or passwordless sudo allows it,
# else Playwright's installer (skipped under PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1),
# else one line saying what to run, and exit 1.
set -euo pipefail
cd "$(dirname "$0")/.."

find_browser() {
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    [ -x "$CHROMIUM_PATH" ] && echo "$CHROMIUM_PATH" && return
    echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable: point it at a Chromium or Chrome, or unset it." >&2
    exit 1
  fi
  local name cached
  for name in chromium chromium-browser google-chrome google-chrome-stable; do
    command -v "$name" && return
  done
  cached=$(node -e "process.stdout.write(require('@playwright/test').chromium.executablePath())" 2>/dev/null) &&
    [ -x "$cached" ] && echo "$cached"
}

playwright_install() {
  [ -z "${PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD:-}" ] || return 1
  echo "No Chromium found: downloading Playwright's with npx playwright install chromium..." >&2
  npx playwright install chromium >&2
}

find_browser || { bash scripts/apt-install.sh chromium && find_browser; } || { playwright_install && find_browser; } || {
  if command -v apt-get >/dev/null; then run="sudo apt-get install chromium"; else run="npx playwright install chromium"; fi
  echo "No Chromium or Chrome for the browser tests: run \`$run\` (or set CHROMIUM_PATH to one), then npm test again." >&2
  exit 1
}
