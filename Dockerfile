# syntax=docker/dockerfile:1
#
# 墨池课堂 — production image, two stages on one pinned base (Node 24 LTS "Krypton", Debian bookworm slim):
#
#   build    full install (dev dependencies included) and `vite build --app` → dist/client + dist/server
#   runtime  production dependencies, the built dist/ and the shipped media/ and nothing else; runs as the
#            unprivileged `node` user
#
# The final stage is reproduced outside Docker by tests/integration/container.test.ts, which reads this
# file (COPY, ENV, USER, EXPOSE, HEALTHCHECK, CMD) — keep the final stage declarative so the test can follow it.
#
#   docker build -t mochi-classroom .
#   docker run --rm -p 3000:3000 -v mochi-data:/data -e PUBLIC_ORIGIN=https://www.example.cn mochi-classroom

# ---------------------------------------------------------------------------------------------------
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app

# Dependencies first, so the layer is reused while package*.json are unchanged.
COPY package.json package-lock.json ./
# Lifecycle scripts follow package.json's `allowScripts` policy (npm 11): esbuild's runs, core-js's
# funding banner does not.
RUN npm ci --no-audit --no-fund

# Sources (.dockerignore keeps node_modules, dist, data, tests and reports out of the context).
COPY . .
RUN npm run build

# ---------------------------------------------------------------------------------------------------
FROM node:24.21.0-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app

# ffmpeg (with ffprobe) transcodes the lesson videos operators upload to HLS (decision 043).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*

# package.json is needed at run time too: its "type": "module" makes Node load dist/server/*.js as ES
# modules. (The version shown by the site is inlined into the server bundle at build time.)
COPY package.json package-lock.json ./
# --ignore-scripts: no production dependency needs an install script to work — the only one that
# has one is core-js (a funding banner, denied by allowScripts anyway); esbuild is a dev dependency.
# Skipping them all keeps this layer independent of how a given npm version applies allowScripts.
# The files stay owned by root: the app only reads them.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

COPY --from=build /app/dist ./dist
# The shipped media (sample lesson videos, served at /media/video; MEDIA_DIR defaults to ./media).
COPY --from=build /app/media ./media

# Uploads, the outbox and the embedded database live under DATA_DIR: a volume, writable by the app user only.
# uploads/ exists in the image so that a volume mounted there (shared by several nodes, compose.yaml)
# starts out owned by the app user too.
ENV DATA_DIR=/data
RUN mkdir -p /data/uploads && chown node:node /data /data/uploads
VOLUME ["/data"]

ENV HOST=0.0.0.0 PORT=3000
EXPOSE 3000
USER node

# No curl in slim images: Node's own fetch asks /healthz (liveness, 200 JSON while the process serves).
# Shell form, so the probe follows the port the container really listens on (`-e PORT=…`).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:${PORT:-3000}/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"

# Exec form: node is PID 1 and receives SIGTERM itself; server/main.ts drains connections and exits 0.
CMD ["node", "dist/server/main.js"]
