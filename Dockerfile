# syntax=docker/dockerfile:1
# The app's image: built in one stage, run from a second with production packages only, as a non-root user.
# The same steps run without a container runtime in scripts/deploy-local.sh (what CI tests), see docs/deploy.md.

# ---- build: every package, the web app and the server entries compiled ahead of time ----
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN NODE_ENV=production npm run build

# ---- run: production packages, the build, and the files the server reads at run time ----
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4321 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# Keep this list in step with the copy in scripts/deploy-local.sh.
COPY --from=build /app/dist ./dist
COPY --from=build /app/locales ./locales
COPY --from=build /app/src/server/db/migrations ./src/server/db/migrations
COPY --from=build /app/src/server/db/pglite-worker.mjs ./src/server/db/pglite-worker.mjs
COPY --from=build /app/src/server/ingest/csv-worker.mjs ./src/server/ingest/csv-worker.mjs
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4321
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4321) + '/api/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The app; compose.yaml runs the same image as `migrate.mjs` (the deploy step) and `worker.mjs` too.
CMD ["node", "dist/server-node/start.mjs"]
