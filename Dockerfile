# syntax=docker/dockerfile:1
# The platform in one image: build the web app, then a runtime with production dependencies only,
# run as the unprivileged `node` user, checked by the readiness endpoint. The runtime runs the
# bundled server (scripts/build-server.mjs): no tsx, esbuild or TypeScript in it.
#   docker build -t dating-platform .      or      docker compose up --build   (compose.yaml)
#   docker build --build-arg DEMO_VIDEOS=1 .   keeps ffmpeg (~65 MB), which only renders the demo
#                                              landers' two videos; without it they show photos.
# Node 26 is the Active LTS line (Node 20 reached its end of life on 30 April 2026); package.json's
# `engines` stays `>=20.19`, which CI runs on.
ARG NODE_IMAGE=node:26.10-trixie-slim

# ---- all dependencies (dev included) for the build
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
RUN npm ci

# ---- the web app: build/client (hashed assets with .br/.gz copies) and build/server
FROM deps AS build
COPY . .
RUN npm run build

# ---- production dependencies only (tsx, esbuild, TypeScript, Vite and the tests' tools are dev)
FROM ${NODE_IMAGE} AS prod-deps
ARG DEMO_VIDEOS=0
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
# TypeScript comes along as an optional peer of React Router, i18next and react-i18next (npm keeps
# those with --omit=dev); nothing at run time loads it.
RUN npm ci --omit=dev && npm cache clean --force \
  && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver \
  && if [ "$DEMO_VIDEOS" != "1" ]; then rm -rf node_modules/@ffmpeg-installer; fi

# ---- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json ./
# Read at run time, not compiled: the migrations' SQL, and the sources an embedded database's start
# snapshot is keyed by (server/db/snapshot.ts) when no DATABASE_URL is set.
COPY server/db/migrations ./server/db/migrations
COPY server/db/schema ./server/db/schema
COPY server/modules/demo ./server/modules/demo
COPY server/modules/regions ./server/modules/regions
COPY contract/profiles.ts ./contract/profiles.ts
COPY locales ./locales
COPY content ./content
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Live = the process answers: an instance waiting for its first site is healthy (it serves the setup
# page and the back office, where that site is made); readiness is for the proxy (deploy/Caddyfile).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health/live`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# What `npm run serve` runs, without npm in between (signals reach Node for a graceful shutdown).
CMD ["node", "build/app-server/main.mjs"]
