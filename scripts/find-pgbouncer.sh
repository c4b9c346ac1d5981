#!/usr/bin/env bash
# Prints the path of a pgbouncer for tests/pgbouncer.test.ts (messages go to stderr).
# Missing: Debian's pgbouncer through scripts/apt-install.sh (root or passwordless sudo);
# else one line saying the PgBouncer tests will be skipped, and exit 1 (npm test goes on).
set -euo pipefail

find_pgbouncer() {
  local candidate
  for candidate in "${PGBOUNCER_PATH:-}" /usr/sbin/pgbouncer "$(command -v pgbouncer || true)"; do
    [ -n "$candidate" ] && [ -x "$candidate" ] && echo "$candidate" && return
  done
  return 1
}

find_pgbouncer || { bash "$(dirname "$0")/apt-install.sh" --no-recommends pgbouncer && find_pgbouncer; } || {
  echo "No pgbouncer and no way to install it: the PgBouncer tests will be skipped (apt-get install pgbouncer to run them)." >&2
  exit 1
}
