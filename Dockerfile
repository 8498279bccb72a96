# syntax=docker/dockerfile:1
# The platform in one image: build the web app, then a runtime with production dependencies only,
# run as the unprivileged `node` user, checked by the readiness endpoint.
#   docker build -t dating-platform .      or      docker compose up --build   (compose.yaml)
ARG NODE_IMAGE=node:20.19-bookworm-slim

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

# ---- production dependencies only
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# ---- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json tsconfig.json ./
COPY server ./server
COPY contract ./contract
COPY locales ./locales
COPY content ./content
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Ready = the database (and Redis, when configured) answer and a site exists.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# What `npm run serve` runs, without npm in between (signals reach Node for a graceful shutdown).
CMD ["node", "build/app-server/main.mjs"]
