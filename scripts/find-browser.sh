#!/usr/bin/env bash
# Prints the path of a Chromium or Chrome for Playwright (messages go to stderr).
# First Chromium's headless shell, what Playwright itself runs headless: the whole browser in its new
# headless mode took a fifth more time over the same specs (139 s against 109-124 s on two cores).
# Found: CHROMIUM_PATH, a headless shell (Debian's, or installed through apt-get when root or
# passwordless sudo allows it), a Chromium or Chrome on PATH, or one `npx playwright install` fetched.
# Missing: Playwright's installer (skipped under PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1), else one line
# saying what to run, and exit 1.
set -euo pipefail
cd "$(dirname "$0")/.."

find_headless_shell() {
  [ -z "${CHROMIUM_PATH:-}" ] || return 1
  # Debian's binary itself: /usr/bin's is a shell script that runs it as a child.
  [ -x /usr/lib/chromium/chromium-headless-shell ] && echo /usr/lib/chromium/chromium-headless-shell && return
  command -v chromium-headless-shell
}

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

find_headless_shell || { [ -z "${CHROMIUM_PATH:-}" ] && bash scripts/apt-install.sh chromium-headless-shell && find_headless_shell; } ||
  find_browser || { playwright_install && find_browser; } || {
  if command -v apt-get >/dev/null; then run="sudo apt-get install chromium-headless-shell"; else run="npx playwright install chromium"; fi
  echo "No Chromium or Chrome for the browser tests: run \`$run\` (or set CHROMIUM_PATH to one), then npm test again." >&2
  exit 1
}
