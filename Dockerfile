# loyalty-mock as a container: `docker build -t loyalty-mock .`, then
# `docker run --rm -p 127.0.0.1:3000:3000 loyalty-mock` (docs/guide/docker.md has the recipes).
# No `# syntax=` line: the builder's own Dockerfile frontend reads RUN --mount, and fetching another needs a registry.

# The Node base image, the same in both stages: a Node 24 LTS slim image unless told otherwise (CI builds on a
# local stand-in with the same Debian release and Node major, as its machines reach no container registry).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Behind a TLS-intercepting proxy npm must trust its CA: `--secret id=npm_ca,src=ca.pem` adds that bundle to the
# ones Node trusts, for this step only (a secret is never stored in a layer). Without it npm reaches the
# registry as usual. The scripts wait for the sources: `prepare` would build before they are copied.
RUN --mount=type=secret,id=npm_ca,required=false \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -b tsconfig.build.json \
    && rm -f dist/.tsbuildinfo && find dist -name '*.map' -delete \
    && npm prune --omit=dev --no-audit --no-fund \
    && find node_modules -mindepth 1 -maxdepth 1 -type d -empty -delete

FROM ${NODE_IMAGE}
# The version is package.json's (a test holds them together); SOURCE is where the image was built from.
ARG VERSION=0.12.0
ARG SOURCE=https://github.com/OWNER/loyalty-mock
LABEL org.opencontainers.image.title="loyalty-mock" \
      org.opencontainers.image.description="A local stand-in for the core operations of a loyalty and promotions service" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="MIT"
# A user of its own rather than the official image's `node`, so the same file builds on any Debian-based Node
# image; /data is where LOYALTY_MOCK_STATE_FILE is meant to point, writable by that user only. A system account
# (no password ageing, no lastlog entry), with a uid above any a host's own users are likely to have: useradd's
# system range ends at 999, so this one call widens it rather than warn on every build.
RUN groupadd --system --gid 10001 loyalty \
    && useradd --system -K SYS_UID_MAX=10001 --uid 10001 --gid loyalty --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin loyalty \
    && mkdir /data && chown loyalty:loyalty /data && chmod 700 /data
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY fixtures ./fixtures
COPY scenarios ./scenarios
COPY ui ./ui
COPY LICENSE ./
# Every container listens on all its addresses (a published port reaches nothing else); the server says so, and
# that the control API is open, unless LOYALTY_MOCK_ADMIN_TOKEN is set. The health file is where the server, once
# it listens, writes its address and admin token for the HEALTHCHECK (in /tmp: a tmpfs under --read-only).
ENV NODE_ENV=production \
    LOYALTY_MOCK_HOST=0.0.0.0 \
    LOYALTY_MOCK_PORT=3000 \
    LOYALTY_MOCK_HEALTH_FILE=/tmp/loyalty-mock-health.json
USER loyalty:loyalty
VOLUME ["/data"]
EXPOSE 3000
# The address and admin token the server wrote to its health file, whatever gave them (`docker run IMAGE --port 0
# --admin-token X` is followed), then its /__mock/health, as slim images have no curl. No other process is looked
# at. What it cannot follow (no file yet, a server that stopped) it says in words, in `docker inspect`'s health log.
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 \
    CMD ["node", "/app/dist/cli/health-main.js"]
# Node is PID 1 and handles SIGTERM itself (docker stop): requests a fault rule holds back are answered at once,
# the others get 5 s (Docker kills after 10), state is saved, exit 0.
ENTRYPOINT ["node", "/app/dist/main.js"]
