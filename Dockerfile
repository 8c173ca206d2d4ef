# syntax=docker/dockerfile:1
# Build stage: native addons (better-sqlite3) compile here, with the toolchain that the runtime
# image does not carry; the contract and types are checked before anything ships.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run typecheck && npm run lint:proto && npm prune --omit=dev

# Runtime stage: no compilers, no dev dependencies, an unprivileged user.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    FRONTDESK_HOST=0.0.0.0 \
    FRONTDESK_PORT=8080 \
    FRONTDESK_DATA_DIR=/var/lib/frontdesk
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/bin ./bin
COPY --from=build --chown=node:node /app/src ./src
COPY --from=build --chown=node:node /app/gen ./gen
COPY --from=build --chown=node:node /app/proto ./proto
COPY --from=build --chown=node:node /app/bundle ./bundle
COPY --from=build --chown=node:node /app/data ./data
RUN mkdir -p /var/lib/frontdesk && chown node:node /var/lib/frontdesk
USER node
EXPOSE 8080
# Binding 0.0.0.0 needs API keys (FRONTDESK_API_KEYS) or an explicit FRONTDESK_ALLOW_PUBLIC_BIND=true.
ENTRYPOINT ["node", "bin/frontdesk.js"]
CMD ["serve"]
