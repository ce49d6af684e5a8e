# syntax=docker/dockerfile:1

# Build stage: compile TypeScript with the full toolchain (esbuild through scripts/build.ts), and
# better-sqlite3's native module (SQLite, when DATABASE_URL is unset) from source: Debian's
# compiler and Python for node-gyp, against the headers of the image's own Node
# (/usr/local/include/node: no download of headers, nor of a prebuilt binary).
FROM node:20-bookworm-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
# node-gyp as npm ships it, run directly: no prebuilt download attempted, whatever npm's version
# thinks of install scripts (npm ci above ran none).
RUN (cd node_modules/better-sqlite3 \
    && node "$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js" rebuild --release --nodedir=/usr/local) \
    && node -e "new (require('better-sqlite3'))(':memory:').close()"
# Bottleneck's Redis 7 fix (patches/, SGrondin/bottleneck#205/#219), applied here because install scripts are off.
COPY patches ./patches
RUN npx patch-package --error-on-fail
COPY scripts ./scripts
COPY src ./src
COPY commands ./commands
RUN npm run build

# Runtime stage: production dependencies and compiled output only, as the unprivileged node user.
FROM node:20-bookworm-slim AS runtime
# --v8-pool-size=1, as npm start: one thread for V8's background compilation and GC helpers instead
# of four. On two cores, four of them took the event loop's core while the languages loaded
# (README.md, Docker); on a host with more cores, raise it in NODE_OPTIONS.
# --max-semi-space-size=4, as npm start: a young generation of at most 3 x 4 MB rather than 3 x 16 MB,
# which V8 grows to under a busy minute and keeps (README, Docker, "Memory").
# A heap cap makes V8 return memory after load peaks instead of holding its high-water mark
# (bench/: 277 MB RSS settled without a cap, about 216 MB at 192 MB). 256 keeps room for a card
# database refresh, when the old and the new card set are briefly both alive (≈150 MB of heap).
# discord.js warns at start that limiting its guild, channel, role and overwrite caches is unsupported:
# Almanac limits them on purpose (it keeps what it reads in its own stores), so that one warning type
# is silenced, as in npm start.
# The ops server listens on every interface of the container (publish it with care: compose maps
# it to the host's loopback only); outside a container it defaults to 127.0.0.1.
# glibc's allocator: two arenas rather than eight per core, and blocks from 128 KiB up mapped on
# their own and returned when freed (a fixed threshold; glibc's sliding one grows to 32 MiB and keeps
# what it frees). Why and what it saves: README, Docker, "Memory".
# Deck pictures draw card names (sharp/libvips renders text through fontconfig): the slim base has
# no font. The font cache is built here; anything fontconfig still wants to write goes under /tmp,
# the only writable place besides /data on the read-only root. SQLite's database (almanac.db, with
# its -wal and -shm files) lives in /data too.
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    NODE_OPTIONS="--max-old-space-size=256 --v8-pool-size=1 --max-semi-space-size=4 --disable-warning=UnsupportedCacheOverwriteWarning" \
    DATA_DIR=/data \
    METRICS_PORT=9464 \
    METRICS_HOST=0.0.0.0 \
    XDG_CACHE_HOME=/tmp/.cache \
    FONTCONFIG_CACHE=/tmp/.cache/fontconfig
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core fontconfig \
    && rm -rf /var/lib/apt/lists/* \
    && fc-cache -f
WORKDIR /app
COPY package.json package-lock.json ./
# better-sqlite3's C sources (SQLite's amalgamation, 12 MB) serve only the build stage's compile.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force \
    && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src
# The patched Bottleneck from the build stage (patch-package is a dev tool, absent here), and
# better-sqlite3's compiled module (the runtime stage has no compiler).
COPY --from=build /app/node_modules/bottleneck ./node_modules/bottleneck
COPY --from=build /app/node_modules/better-sqlite3/build/Release/better_sqlite3.node ./node_modules/better-sqlite3/build/Release/
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 9464
HEALTHCHECK --interval=30s --timeout=3s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.METRICS_PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Other entry points run from the same image (see README, Docker): node dist/src/register.js,
# node dist/src/cards-import.js <file>, node dist/src/cli.js <command>.
CMD ["node", "dist/src/index.js"]
