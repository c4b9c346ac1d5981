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

# Root runs apt-get itself; anyone else only with sudo that asks no password.
# apt-get's output is shown only when it fails.
apt_install() {
  local sudo= log
  command -v apt-get >/dev/null || return 1
  if [ "$(id -u)" != 0 ]; then sudo -n true 2>/dev/null || return 1; sudo="sudo -n"; fi
  echo "No Chromium found: installing Debian's chromium with apt-get..." >&2
  log=$({ $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } 2>&1) ||
    { echo "$log" >&2; return 1; }
}

playwright_install() {
  [ -z "${PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD:-}" ] || return 1
  echo "No Chromium found: downloading Playwright's with npx playwright install chromium..." >&2
  npx playwright install chromium >&2
}

find_browser || { apt_install && find_browser; } || { playwright_install && find_browser; } || {
  if command -v apt-get >/dev/null; then run="sudo apt-get install chromium"; else run="npx playwright install chromium"; fi
  echo "No Chromium or Chrome for the browser tests: run \`$run\` (or set CHROMIUM_PATH to one), then npm test again." >&2
  exit 1
}
