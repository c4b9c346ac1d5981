#!/usr/bin/env bash
# The fleet test (tests/hardening/fleet.test.ts) puts haproxy in front of three servers.
# Missing: Debian's haproxy through apt-get when root or passwordless sudo allows it (as
# scripts/find-browser.sh does for Chromium); else one line, and the fleet test skips.
set -uo pipefail
HAPROXY=${HAPROXY:-/usr/sbin/haproxy}
[ -x "$HAPROXY" ] && exit 0
sudo=
if command -v apt-get >/dev/null && { [ "$(id -u)" = 0 ] || { sudo -n true 2>/dev/null && sudo="sudo -n"; }; }; then
  echo "No haproxy found: installing Debian's haproxy with apt-get..." >&2
  log=$({ $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy; } 2>&1) || echo "$log" >&2
fi
[ -x "$HAPROXY" ] || echo "No haproxy at $HAPROXY: the fleet test will skip (apt-get install haproxy to run it)." >&2
exit 0
