#!/usr/bin/env bash
# Makes the Dockerfile's base image (node:20-bookworm-slim) available to podman: pulled where a
# registry is reachable, else a local stand-in built from this machine's Debian mirror and Node:
# debootstrap's minbase bookworm, this machine's `node` and npm, a `node` user (uid 1000, as in the
# official image) and the CA file npm is configured with, so that `npm ci` in the build reaches the
# registry exactly as it does here. Prints the image name.
set -euo pipefail
IMAGE=node:20-bookworm-slim
PODMAN=(podman --runtime runc)
if "${PODMAN[@]}" image exists "$IMAGE"; then echo "$IMAGE"; exit 0; fi
if timeout 60 "${PODMAN[@]}" pull -q "docker.io/library/$IMAGE" >/dev/null 2>&1; then echo "$IMAGE"; exit 0; fi

root=$(mktemp -d /var/tmp/almanac-base-XXXXXX)
trap 'rm -rf "$root"' EXIT
# The mirror this machine's apt uses (deb822 sources or the classic list).
mirror=$(grep -hoE '^URIs: \S+' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 | cut -d' ' -f2 || true)
[ -n "$mirror" ] || mirror=$(grep -hoE '^deb \S+' /etc/apt/sources.list 2>/dev/null | head -1 | cut -d' ' -f2 || true)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
debootstrap --variant=minbase bookworm "$root" "$mirror" >&2

node_bin=$(readlink -f "$(command -v node)")
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
install -m 0755 "$node_bin" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
cafile=$(npm config get cafile)
if [ "$cafile" != "null" ] && [ -f "$cafile" ]; then
  mkdir -p "$root/etc/ssl/certs" && cp "$cafile" "$root/etc/ssl/certs/ca-certificates.crt"
fi
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$root/var/cache/apt/archives"/*.deb "$root/var/lib/apt/lists"/*

tar -C "$root" -c . | "${PODMAN[@]}" import \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'ENV npm_config_cafile=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' - "$IMAGE" >&2
echo "$IMAGE"
