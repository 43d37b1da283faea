# The Careplane server (API, auth server, console and phone app in one process) as an image: built with the
# development tools, run without them, as the unprivileged `node` user. compose.yaml runs several of them.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY . .
# Build with everything, then keep only what the built server needs (README: "A built checkout runs without
# the development tools"); the careplane command then runs from the build too.
RUN npm ci && npm run build && npm ci --omit=dev && npm cache clean --force

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app /app
# The only place the server writes: the embedded database or, without ENCRYPTION_KEY, its generated key.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Ready means: the database answers and the process is not shutting down (a proxy stops sending it traffic).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "--max-semi-space-size=64", "apps/server/dist/main.js"]
