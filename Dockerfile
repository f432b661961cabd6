# syntax=docker/dockerfile:1
# visibility-bot: multi-stage build on the newest Node LTS line (26). The build stage
# installs from the lockfile and bundles the TypeScript (scripts/build-dist.mjs); the runtime
# stage gets only the bundle and the production dependencies, owned by root so the unprivileged
# runtime user can read but never change them.

FROM node:26-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts are skipped at install: "prepare" would build before the sources are copied.
# better-sqlite3 13 ships Node-API binaries for linux-x64/arm64 (glibc and musl), so no
# compiler runs here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
# Production dependencies only, then drop better-sqlite3's sources (SQLite amalgamation,
# C++), its build folder and the binaries of other platforms: ~25 MB the runtime never loads.
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && cd node_modules/better-sqlite3 \
 && rm -rf deps src build binding.gyp \
 && keep="prebuilds/linux-$(node -p process.arch).node" \
 && find prebuilds -type f ! -path "$keep" -delete \
 && node -e "const D=require('/app/node_modules/better-sqlite3'); new D(':memory:').close()"

FROM node:26-bookworm-slim AS runtime
# MALLOC_ARENA_MAX: glibc's malloc held to two arenas instead of eight per CPU: a poll over
# 1,000 brands took some 5 % less CPU with it (npm run bench -- alerts, 9 of 10 paired runs).
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_PATH=/app/data/visibility.db \
    MALLOC_ARENA_MAX=2
WORKDIR /app
# Code and dependencies stay root-owned (read-only for `node`); only /app/data is writable.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME /app/data
EXPOSE 3000
# /healthz (liveness) is 200 while the process serves and can recover; see README "Health".
# An API or database outage does not turn it red, so the orchestrator never restarts the
# bot for a vendor problem or a database blip (/readyz reports those). (podman/buildah keep
# HEALTHCHECK only with `--format docker`.)
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1 and handles SIGTERM itself: stop taking requests, finish commands in
# flight (at most 8 s, inside Docker's default 10 s stop timeout), close the database.
STOPSIGNAL SIGTERM
# A young generation of 8 MB semi-spaces instead of V8's default: a poll over 1,000 brands
# peaks at about 190 MB instead of about 260 MB for the same CPU (npm run bench -- alerts).
CMD ["node", "--max-semi-space-size=8", "dist/main.js", "serve"]
