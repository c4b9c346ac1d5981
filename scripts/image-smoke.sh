#!/usr/bin/env bash
# Builds the Dockerfile with podman and smoke-tests the image (scripts/image-smoke.ts): health, ready,
# nothing seeded, a business and a card, not root, SIGTERM drains, refuses to start without DATABASE_URL.
# Run it whenever the Dockerfile, .dockerignore or anything the Dockerfile copies changes; it takes
# minutes, so CI does not. Needs root (debootstrap, podman) and the PostgreSQL of SMOKE_DATABASE_URL
# (default postgres://postgres@127.0.0.1:5432/postgres), where it makes and drops a scratch database.
#
# Without an image registry, node:20-slim is a stand-in made here from Debian packages: debootstrap's
# minimal bookworm from the mirror apt is configured with, this machine's own Node.js and npm, the
# node user (uid 1000) and npm trusting the CA bundle NODE_EXTRA_CA_CERTS names. It is kept for the next
# run (224 MB); the app image and the build's layers are removed at the end unless KEEP_IMAGE=1.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=docker.io/library/node:20-slim
IMAGE=localhost/giftcard-smoke:latest
# This machine's container limits: crun does not start here, and podman's default 1048576 open files is over the hard limit.
PODMAN=(podman --runtime runc)
LIMITS=(--ulimit nofile=20000:20000 --ulimit nproc=20000:20000)

for tool in podman runc debootstrap; do
  command -v "$tool" >/dev/null || bash scripts/apt-install.sh --no-recommends podman runc debootstrap containernetworking-plugins
done

mirror() {
  local codename=$1
  # The first mirror apt uses for the release itself (not its security or updates suites), deb822 or one-line.
  {
    cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v c="$codename" '
      /^URIs:/ { uri = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == c) ok = 1 }
      /^$/ { if (ok && uri) print uri; ok = 0; uri = "" } END { if (ok && uri) print uri }'
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk -v c="$codename" '
      $1 == "deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) { if ($(i + 1) == c) print $i; break } }'
  } | head -n 1
}

make_base() {
  local codename root ca
  codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
  root=$(mktemp -d /var/tmp/node-slim-standin.XXXXXX)
  trap 'rm -rf "$root"' EXIT
  ca=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
  local from=${MIRROR:-$(mirror "$codename")}
  [ -n "$from" ] || { echo "No Debian mirror for $codename in /etc/apt/sources.list*: set MIRROR" >&2; exit 1; }
  echo "Making the stand-in $BASE: debootstrap $codename from $from, Node.js $(node --version) and npm $(npm --version) from this machine" >&2
  debootstrap --variant=minbase "$codename" "$root" "$from" >/dev/null
  # Node.js and npm as installed here (npm may have been upgraded past the package's own).
  tar -C / -cf - usr/bin/node usr/bin/npm usr/bin/npx usr/lib/node_modules | tar -C "$root" -xf -
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  install -D -m 644 "$ca" "$root/etc/ssl/npm-ca.pem"
  mkdir -p "$root/usr/etc"
  echo "cafile=/etc/ssl/npm-ca.pem" >"$root/usr/etc/npmrc"
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc "$root"/usr/share/man
  tar -C "$root" -cf - . | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["node"]' \
    --change 'LABEL giftcard.stand-in=node:20-slim from Debian packages' \
    --message 'stand-in for node:20-slim' - "$BASE" >/dev/null
  rm -rf "$root"
}

podman image exists "$BASE" || make_base
echo "base $BASE: $(podman image inspect --format '{{.Size}}' "$BASE" | awk '{ printf "%.0f MB", $1 / 1e6 }')"
[ "${1:-}" = --base-only ] && exit 0

cleanup() {
  if [ "${KEEP_IMAGE:-}" != 1 ]; then
    podman rmi -f "$IMAGE" >/dev/null 2>&1 || true
    podman image prune -f >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

started=$(date +%s)
build_log=$(mktemp /tmp/image-smoke-build.XXXXXX)
# --format docker keeps the HEALTHCHECK, which the OCI format drops.
if ! "${PODMAN[@]}" build --pull=never --format docker --network host "${LIMITS[@]}" -t "$IMAGE" . >"$build_log" 2>&1; then
  tail -n 60 "$build_log" >&2
  echo "FAIL build (whole log: $build_log)" >&2
  exit 1
fi
rm -f "$build_log"
echo "build: $(($(date +%s) - started)) s; image $(podman image inspect --format '{{.Size}}' "$IMAGE" | awk '{ printf "%.0f MB", $1 / 1e6 }')"

SMOKE_IMAGE=$IMAGE SMOKE_PODMAN="${PODMAN[*]} " SMOKE_LIMITS="${LIMITS[*]}" node --import tsx scripts/image-smoke.ts
