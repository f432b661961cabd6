# syntax=docker/dockerfile:1
# visibility-bot: multi-stage build. better-sqlite3 is compiled here, against the same
# Debian (bookworm) glibc the runtime image has, so the native module loads there.

FROM node:22-bookworm AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# Scripts are skipped at install: "prepare" would build before the sources are copied.
# better-sqlite3 is then built from source on purpose (no downloaded prebuilt binary).
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm_config_build_from_source=true npm rebuild better-sqlite3
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_PATH=/app/data/visibility.db
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# The database lives on a volume owned by the unprivileged `node` user of the base image.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME /app/data
EXPOSE 3000
# /healthz stays 200 while the process runs and the database is open (an API outage does
# not turn it red, so the orchestrator does not restart the bot for a vendor problem).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1 and handles SIGTERM itself: stop taking requests, finish commands in
# flight (at most 8 s, inside Docker's default 10 s stop timeout), close the database.
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js", "serve"]
