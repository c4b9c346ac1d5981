#!/usr/bin/env bash
# The fleet test (tests/hardening/fleet.test.ts) puts haproxy in front of three servers.
# Missing: Debian's haproxy through scripts/apt-install.sh (as scripts/find-browser.sh does for
# Chromium); else one line, and the fleet test skips.
set -uo pipefail
HAPROXY=${HAPROXY:-/usr/sbin/haproxy}
[ -x "$HAPROXY" ] && exit 0
bash "$(dirname "$0")/apt-install.sh" haproxy
[ -x "$HAPROXY" ] || echo "No haproxy at $HAPROXY: the fleet test will skip (apt-get install haproxy to run it)." >&2
exit 0
