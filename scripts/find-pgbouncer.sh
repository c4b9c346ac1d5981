#!/usr/bin/env bash
# Prints the path of a pgbouncer for tests/pgbouncer.test.ts (messages go to stderr).
# Missing: Debian's pgbouncer through apt-get when root or passwordless sudo allows it;
# else one line saying the PgBouncer tests will be skipped, and exit 1 (npm test goes on).
set -euo pipefail

find_pgbouncer() {
  local candidate
  for candidate in "${PGBOUNCER_PATH:-}" /usr/sbin/pgbouncer "$(command -v pgbouncer || true)"; do
    [ -n "$candidate" ] && [ -x "$candidate" ] && echo "$candidate" && return
  done
  return 1
}

apt_install() {
  local sudo= log
  command -v apt-get >/dev/null || return 1
  if [ "$(id -u)" != 0 ]; then sudo -n true 2>/dev/null || return 1; sudo="sudo -n"; fi
  echo "No pgbouncer found: installing Debian's pgbouncer with apt-get..." >&2
  log=$({ $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends pgbouncer; } 2>&1) ||
    { echo "$log" >&2; return 1; }
  # Debian starts the packaged service; the tests run their own.
  $sudo systemctl disable --now pgbouncer >/dev/null 2>&1 || true
}

find_pgbouncer || { apt_install && find_pgbouncer; } || {
  echo "No pgbouncer and no way to install it: the PgBouncer tests will be skipped (apt-get install pgbouncer to run them)." >&2
  exit 1
}
