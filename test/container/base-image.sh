#!/usr/bin/env bash
# Makes the Dockerfile's base image (node:20-bookworm-slim) available to podman: pulled where a
# registry is reachable, else a local stand-in built from this machine's Debian mirror and Node:
# debootstrap's minbase bookworm, this machine's `node`, its headers (in /usr/local/include/node,
# as in the official image: the build compiles better-sqlite3 against them) and npm, a `node` user
# (uid 1000, as in the official image) and the CA file npm is configured with, so that `npm ci` in
# the build reaches the registry exactly as it does here. Prints the image name.
set -euo pipefail
IMAGE=node:20-bookworm-slim
PODMAN=(podman --runtime runc)
HEADERS=/usr/local/include/node/common.gypi
if "${PODMAN[@]}" image exists "$IMAGE"; then
  # A stand-in made before the build needed Node's headers is made again (the new one takes the
  # name; images built on the old one keep it, untagged).
  if "${PODMAN[@]}" run --rm --network none --ulimit nofile=20000:20000 --ulimit nproc=1000:1000 "$IMAGE" test -f "$HEADERS"; then echo "$IMAGE"; exit 0; fi
fi
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
# Node's headers: where npm's nodedir points (this machine's Debian node: /usr), else beside the binary.
nodedir=$(npm config get nodedir)
{ [ "$nodedir" != "null" ] && [ -n "$nodedir" ]; } || nodedir=$(dirname "$(dirname "$node_bin")")
mkdir -p "$root/usr/local/include"
cp -a "$nodedir/include/node" "$root/usr/local/include/node"
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
