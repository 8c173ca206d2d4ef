# syntax=docker/dockerfile:1
# The official Node 24 LTS image (Debian bookworm, slim), pinned by digest: a rebuilt tag cannot
# change what ships. Its Node matches the `node` devDependency that CI tests on (24.21.0).
# To update: docker buildx imagetools inspect node:24-bookworm-slim, then take the index digest.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim@sha256:2fe369e969550cde8e867afc3fe370b260140cab4a23d467074295b42163d553

# Build stage: dependencies from the lockfile, then src/ and gen/ compiled to dist/ (tsc checks
# the types on the way), the contract linted, and the dev dependencies (typescript, tsx, buf, the
# test toolchain) pruned. better-sqlite3 ships prebuilt Node-API binaries: no compiler needed.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json buf.yaml ./
COPY src ./src
COPY gen ./gen
COPY proto ./proto
# @qdrant/js-client-rest declares typescript as a peer dependency (for its type declarations), so
# npm keeps it among the production packages; nothing loads it at run time: removed.
RUN npm run build && npm run lint:proto \
    && npm prune --omit=dev --no-audit --no-fund \
    && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver

# Runtime stage: the compiled service, its production dependencies and the data it reads at run
# time (config bundle, sample corpus, evaluation scenarios). No sources, no build tools, no root.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    FRONTDESK_HOST=0.0.0.0 \
    FRONTDESK_PORT=8080 \
    FRONTDESK_DATA_DIR=/var/lib/frontdesk
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/gen ./dist/gen
COPY bin/frontdesk.js bin/healthcheck.js ./bin/
COPY bundle ./bundle
COPY data/corpus ./data/corpus
COPY eval ./eval
RUN mkdir -p /var/lib/frontdesk && chown node:node /var/lib/frontdesk
USER node
EXPOSE 8080
# grpc.health.v1.Health/Check on the container's own port; NOT_SERVING (shutting down) is unhealthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["node", "bin/healthcheck.js"]
# Binding 0.0.0.0 needs API keys (FRONTDESK_API_KEYS) or an explicit FRONTDESK_ALLOW_PUBLIC_BIND=true.
ENTRYPOINT ["node", "bin/frontdesk.js"]
CMD ["serve"]
