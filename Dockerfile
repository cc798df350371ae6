# syntax=docker/dockerfile:1.7
# Two small runtime images from one build:
#   --target gateway   the public gateway with the built web app
#   --target services  case, user, docs and builder services, the job worker and the migrate job
#                      (SERVICE=case|user|docs|builder|worker|migrate)

ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
ENV CI=true
RUN npm install -g pnpm@10.34.8
# Dependencies first, so a code change does not reinstall them.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/core/package.json packages/core/
COPY packages/jobs/package.json packages/jobs/
COPY packages/storage/package.json packages/storage/
COPY packages/exports/package.json packages/exports/
COPY packages/connectors/package.json packages/connectors/
COPY packages/client/package.json packages/client/
COPY gateway/package.json gateway/
COPY services/case/package.json services/case/
COPY services/user/package.json services/user/
COPY services/docs/package.json services/docs/
COPY services/builder/package.json services/builder/
COPY services/runner/package.json services/runner/
COPY web/package.json web/
COPY tests/package.json tests/
RUN pnpm install --frozen-lockfile
COPY . .
RUN node scripts/build.mjs \
 && pnpm --filter @portal/gateway deploy --legacy --prod /out/gateway \
 && pnpm --filter @portal/runner deploy --legacy --prod /out/services

FROM ${NODE_IMAGE} AS runtime-base
ENV NODE_ENV=production
WORKDIR /app
# The node user (uid 1000) owns nothing but the data directory.
RUN mkdir -p /app/.data && chown node:node /app/.data
ENV DATA_DIR=/app/.data TENANT_CONFIG_DIR=/app/config/tenants

FROM runtime-base AS gateway
COPY --from=build /out/gateway/node_modules ./node_modules
COPY --from=build /src/gateway/dist ./dist
COPY --from=build /src/web/dist ./web/dist
COPY --from=build /src/config ./config
ENV WEB_DIST_DIR=/app/web/dist PORT=8080 METRICS_PORT=9091
USER node
EXPOSE 8080 9091
# Liveness (/api/health/live asks no dependency): an orchestrator that replaces unhealthy containers
# must not do so for a Redis or upstream outage. docker-compose.yml checks readiness instead.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/server.js"]

FROM runtime-base AS services
COPY --from=build /out/services/node_modules ./node_modules
COPY --from=build /src/services/runner/dist ./dist
COPY --from=build /src/config ./config
USER node
EXPOSE 4001 4002 4003 4004 4005
# SERVICE picks the process: case, user, docs, builder, worker, or migrate (one-shot).
CMD ["node", "--enable-source-maps", "dist/main.js"]
