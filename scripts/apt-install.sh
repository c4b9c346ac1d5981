#!/usr/bin/env bash
# Installs Debian packages for the test suites: `apt-install.sh [--no-recommends] PACKAGE...`.
# Root runs apt-get itself; anyone else only with sudo that asks no password. Messages go to
# stderr; apt-get's output is shown only when it fails. A service a package starts is stopped
# again (the tests run their own). Exits 1 when it cannot install.
set -uo pipefail
recommends=()
if [ "${1:-}" = --no-recommends ]; then recommends=(--no-install-recommends); shift; fi
command -v apt-get >/dev/null || exit 1
sudo=
if [ "$(id -u)" != 0 ]; then sudo -n true 2>/dev/null || exit 1; sudo="sudo -n"; fi
echo "Installing Debian's $* with apt-get..." >&2
log=$({ $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${recommends[@]}" "$@"; } 2>&1) ||
  { echo "$log" >&2; exit 1; }
for package in "$@"; do $sudo systemctl disable --now "$package" >/dev/null 2>&1 || true; done
